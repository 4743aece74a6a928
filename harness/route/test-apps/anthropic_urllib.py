# A Python app (standard library only) that streams a reply from Anthropic's Messages API at the provider's own URL,
# printing each text delta as it comes, then calls another host.
import json
import sys
import urllib.error
import urllib.request

body = {
    "model": "claude-sonnet-4-6",
    "max_tokens": 256,
    "messages": [{"role": "user", "content": "Give me a short tour"}],
    "stream": True,
}
headers = {"content-type": "application/json", "x-api-key": "sk-ant-route-test", "anthropic-version": "2023-06-01"}
call = urllib.request.Request("https://api.anthropic.com/v1/messages", data=json.dumps(body).encode(), headers=headers)
with urllib.request.urlopen(call) as stream:
    for raw in stream:
        line = raw.decode().rstrip("\n")
        if not line.startswith("data: "):
            continue
        event = json.loads(line[len("data: "):])
        if event["type"] == "content_block_delta" and event["delta"]["type"] == "text_delta":
            sys.stdout.write(event["delta"]["text"])
            sys.stdout.flush()
try:
    with urllib.request.urlopen("https://example.com/") as other:
        status = other.status
except urllib.error.HTTPError as error:
    status = error.code
print(f"\nexample.com: {status}")
