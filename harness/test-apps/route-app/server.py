# A Python app (standard library only) whose code holds its provider's URL: `/ask` streams a reply to the page from
# Anthropic's Messages API at https://api.anthropic.com with urllib.request, then calls another host and shows its status.
import json
import os
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PAGE = open(os.path.join(os.path.dirname(__file__), "page.html"), "rb").read()


def deltas():
    body = {
        "model": "claude-sonnet-4-6",
        "max_tokens": 256,
        "messages": [{"role": "user", "content": "Give me a short tour"}],
        "stream": True,
    }
    headers = {"content-type": "application/json", "x-api-key": "sk-ant-route-app", "anthropic-version": "2023-06-01"}
    call = urllib.request.Request("https://api.anthropic.com/v1/messages", data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(call) as stream:
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("data: "):
                event = json.loads(line[len("data: "):])
                if event["type"] == "content_block_delta" and event["delta"]["type"] == "text_delta":
                    yield event["delta"]["text"]


def other_status():
    try:
        with urllib.request.urlopen("https://example.com/") as other:
            return other.status
    except urllib.error.HTTPError as error:
        return error.code


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        body = b"ok" if self.path == "/health" else PAGE
        self.send_response(200)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        self.send_response(200)
        self.send_header("content-type", "text/plain; charset=utf-8")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        for text in deltas():
            self.write_chunk(text)
        self.write_chunk(f"\nexample.com: {other_status()}")
        self.wfile.write(b"0\r\n\r\n")

    def write_chunk(self, text):
        data = text.encode()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def log_message(self, format, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler).serve_forever()
