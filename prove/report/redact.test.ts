import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { combine, pathsFrom, redact, redactBytes, secretsFrom } from "./redact.ts";
import { rewriteZip } from "./zip.ts";

const env = {
  OPENAI_API_KEY: "sk-live-0123456789abcdef",
  GH_TOKEN: "ghp_0123456789",
  DB_PASSWORD: 'pa"ss\\word-42',
  SHORT_TOKEN: "1234567",
  HOME: "/home/dev-0123456789",
  MY_AUTH_HEADER: "Bearer abc.def.ghi",
  EMPTY_SECRET: undefined,
};
const secrets = secretsFrom(env);

describe("redaction", () => {
  it.each([
    ["a key in a log line", "key=sk-live-0123456789abcdef;", "key=[redacted:OPENAI_API_KEY];"],
    ["every occurrence", "ghp_0123456789 and ghp_0123456789", "[redacted:GH_TOKEN] and [redacted:GH_TOKEN]"],
    ["a value as JSON escapes it", JSON.stringify({ p: 'pa"ss\\word-42' }), '{"p":"[redacted:DB_PASSWORD]"}'],
    ["a value inside a URL", `https://x/?k=${encodeURIComponent("Bearer abc.def.ghi")}`, "https://x/?k=[redacted:MY_AUTH_HEADER]"],
    ["values shorter than 8 characters stay", "pin 1234567", "pin 1234567"],
    ["variables whose name does not look secret stay", "cd /home/dev-0123456789", "cd /home/dev-0123456789"],
  ])("takes out %s", (_case, text, expected) => {
    expect(redact(text, secrets)).toBe(expected);
  });

  it("returns the same bytes when there is nothing to take out, and new bytes otherwise", () => {
    const clean = Buffer.from("nothing here");
    expect(redactBytes(clean, secrets)).toBe(clean);
    expect(redactBytes(Buffer.from("x sk-live-0123456789abcdef y"), secrets).toString()).toBe("x [redacted:OPENAI_API_KEY] y");
  });
});

describe("this machine's paths", () => {
  const paths = combine(secrets, pathsFrom([["/tmp/sp-1-x/base", "<base>"], ["/tmp/sp-1-x", "<run>"], ["/home/dev/app", "."], ["/home/dev", "~"]]));

  it.each([
    ["a worktree path, before the run folder holding it", "cd /tmp/sp-1-x/base/src && ls /tmp/sp-1-x/tmp", "cd <base>/src && ls <run>/tmp"],
    ["a file of the checkout, made relative to it", "at /home/dev/app/scenarios/x.e2e.ts:12", "at scenarios/x.e2e.ts:12"],
    ["the checkout itself", 'cwd "/home/dev/app"', 'cwd "."'],
    ["the home folder, but not a longer name beginning with it", "/home/dev/.npm and /home/dev-0123456789", "~/.npm and /home/dev-0123456789"],
  ])("shows %s", (_case, text, expected) => {
    expect(redact(text, paths)).toBe(expected);
    expect(redactBytes(Buffer.from(text), paths).toString()).toBe(expected);
  });
});

describe("a trace zip", () => {
  it("is rewritten without the secret, and every other entry is kept as it was, stored entries stored", () => {
    const trace = `{"type":"before","params":{"value":"sk-live-0123456789abcdef"}}\n`.repeat(50);
    const image = new Uint8Array(Array.from({ length: 4096 }, (_, index) => (index * 7) % 256));
    const original = zipSync({ "trace.trace": [strToU8(trace), { level: 9 }], "resources/page.jpeg": [image, { level: 0 }] });

    const rewritten = rewriteZip(Buffer.from(original), (content) => redactBytes(content, secrets));
    if (rewritten === undefined) throw new Error("the zip made by fflate could not be read");

    const stored: string[] = [];
    const entries = unzipSync(rewritten, { filter: (file) => (file.compression === 0 && stored.push(file.name), true) });
    expect(Object.keys(entries)).toEqual(["trace.trace", "resources/page.jpeg"]);
    const traceText = strFromU8(entries["trace.trace"] ?? new Uint8Array());
    expect(traceText).not.toContain("sk-live");
    expect(traceText.split("\n")[0]).toBe('{"type":"before","params":{"value":"[redacted:OPENAI_API_KEY]"}}');
    expect(entries["resources/page.jpeg"]).toEqual(image);
    expect(stored).toEqual(["resources/page.jpeg"]);
  });

  it("is refused when it is not a zip", () => {
    expect(rewriteZip(Buffer.from("not a zip at all, just text"), (content) => content)).toBeUndefined();
  });
});
