import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { combine, noRedactions, pathsFrom, redact, redactBytes, redactionCounts, secretsFrom } from "./redact.ts";
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

  it("takes out a value cut short with an ellipsis, as an excerpt of the app's request cuts it, from its first 4 characters", () => {
    const found = noRedactions();
    expect(redact('last user message: "use Bearer abc.d…" (180 more characters)', secrets, found)).toBe(
      'last user message: "use [redacted:MY_AUTH_HEADER]…" (180 more characters)',
    );
    expect(redactBytes(Buffer.from('"text":"pa\\"ss\\\\wo\\u2026"'), secrets, found).toString()).toBe(
      '"text":"[redacted:DB_PASSWORD]\\u2026"',
    );
    expect(redactionCounts(found)).toEqual({ environment: 2, secretShaped: 0 });
    expect(redact("Bea… stays, too short, and so does xBearer abc…, inside a longer word", secrets)).toBe(
      "Bea… stays, too short, and so does xBearer abc…, inside a longer word",
    );
  });

  it("returns the same bytes when there is nothing to take out, and new bytes otherwise", () => {
    const clean = Buffer.from("nothing here");
    expect(redactBytes(clean, secrets)).toBe(clean);
    expect(redactBytes(Buffer.from("x sk-live-0123456789abcdef y"), secrets).toString()).toBe("x [redacted:OPENAI_API_KEY] y");
  });
});

/** Credential-shaped strings an app might print, none of them the value of a variable. */
const shaped = {
  openai: "sk-proj-Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5",
  openaiLegacy: "sk-Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7sU9wY1aC",
  anthropic: "sk-ant-api03-Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1g_I3kM5-oQ7",
  github: "ghp_Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5",
  githubApp: "ghs_Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5",
  githubFineGrained: "github_pat_11AB3DE5G0Ab3dE5gH7jK9_mN1pQ3sT5vX7zA9cE1gI3kM5oQ7sU9wY1aC3eG5iK7mO9qS1uW3yA5",
  npm: "npm_Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5",
  aws: "AKIAIOSFODNN7EXAMPLE",
  slack: "xoxb-1234567890-0987654321-Ab3dE5gH7jK9",
  google: "AIzaSyAb3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3",
  stripe: "sk_live_Ab3dE5gH7jK9mN1pQ3sT5vX7z",
};
const privateKey = [
  "-----BEGIN RSA PRIVATE KEY-----",
  "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgwMbRvI0MBZhpF",
  "-----END RSA PRIVATE KEY-----",
].join("\n");

describe("credential-shaped strings", () => {
  it.each(Object.entries(shaped))("takes out a %s key wherever it sits in a text, and counts it once", (_kind, key) => {
    const found = noRedactions();
    const texts = [
      `key=${key};`,
      key,
      JSON.stringify({ log: `loaded\n${key}\nready` }),
      `https://x/?q=${encodeURIComponent(`token=${key}`)}`,
      `<td>${key}</td> "${key}"`,
    ];
    const redacted = texts.map((text) => redact(text, [], found));
    expect(redacted.join(" ")).not.toContain(key);
    expect(redacted[0]).toBe("key=[redacted:secret-shaped];");
    expect(redacted[2]).toBe('{"log":"loaded\\n[redacted:secret-shaped]\\nready"}');
    expect(redactionCounts(found)).toEqual({ environment: 0, secretShaped: 1 });
  });

  it("takes out a token cut short with an ellipsis, as Playwright's call log and a long message cut it, and counts it with the whole token", () => {
    const found = noRedactions();
    const cut = `${shaped.github.slice(0, 12)}…`;
    expect(redact(`<output>Total: 12 (debug token ${cut}</output> and ${shaped.github}`, [], found)).toBe(
      "<output>Total: 12 (debug token [redacted:secret-shaped]…</output> and [redacted:secret-shaped]",
    );
    expect(redactBytes(Buffer.from(`"text":"${cut}"`), [], found).toString()).toBe('"text":"[redacted:secret-shaped]…"');
    expect(redactionCounts(found)).toEqual({ environment: 0, secretShaped: 1 });
    expect(redact("ghp_Ab3… npm_Ab…", [])).toBe("ghp_Ab3… npm_Ab…");
  });

  it("takes out a private key to its END line, with its lines ending in newlines or in JSON's escapes, as one value", () => {
    const found = noRedactions();
    const inLog = redact(`key:\n${privateKey}\ndone`, [], found);
    const inJson = redact(JSON.stringify({ text: privateKey }), [], found);
    expect(inLog).toBe("key:\n[redacted:secret-shaped]\ndone");
    expect(inJson).toBe('{"text":"[redacted:secret-shaped]"}');
    expect(redact(privateKey.split("\n").slice(0, 2).join("\n"), [])).toBe("[redacted:secret-shaped]");
    expect(redactionCounts(found)).toEqual({ environment: 0, secretShaped: 1 });
  });

  it.each([
    ["a word ending in sk-", "scenarios/task-list-renders-after-reload-twice.e2e.ts"],
    ["a short sk- name", "sk-learn"],
    ["npm's own settings", "npm_config_cache=/home/dev/.npm npm_package_json"],
    ["a commit SHA", "c62e317cae2d41b99bf1d69612798f71333c5e3d"],
    ["a prefix inside a longer word", "xAKIAIOSFODNN7EXAMPLEx and Xghp_Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"],
    ["a key too short to be one", "ghp_short npm_short AKIA123 xoxb-1"],
    ["a public key", "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----"],
  ])("leaves %s alone", (_case, text) => {
    const found = noRedactions();
    expect(redact(text, [], found)).toBe(text);
    expect(redactionCounts(found)).toEqual({ environment: 0, secretShaped: 0 });
  });

  it("counts each variable whose value it took out once, in all its forms, apart from the shapes", () => {
    const found = noRedactions();
    redact(
      `${env.OPENAI_API_KEY} ${JSON.stringify(env.DB_PASSWORD)} ${env.OPENAI_API_KEY} ${shaped.npm} ${shaped.npm} ${shaped.aws}`,
      secrets,
      found,
    );
    redact(encodeURIComponent(env.MY_AUTH_HEADER), secrets, found);
    expect([...found.variables].sort()).toEqual(["DB_PASSWORD", "MY_AUTH_HEADER", "OPENAI_API_KEY"]);
    expect(redactionCounts(found)).toEqual({ environment: 3, secretShaped: 2 });
  });

  it("takes them out of bytes too, except out of an image's", () => {
    const found = noRedactions();
    const text = Buffer.from(`{"type":"stdout","text":"token ${shaped.github}\n"}`);
    expect(redactBytes(text, [], found).toString()).toBe('{"type":"stdout","text":"token [redacted:secret-shaped]\n"}');
    expect(redactBytes(text, [], found, false)).toBe(text);
    expect(redactionCounts(found)).toEqual({ environment: 0, secretShaped: 1 });
  });
});

describe("this machine's paths", () => {
  const paths = combine(
    secrets,
    pathsFrom([
      ["/tmp/sp-1-x/base", "<base>"],
      ["/tmp/sp-1-x", "<run>"],
      ["/home/dev/app", "."],
      ["/home/dev", "~"],
    ]),
  );

  it.each([
    ["a worktree path, before the run folder holding it", "cd /tmp/sp-1-x/base/src && ls /tmp/sp-1-x/tmp", "cd <base>/src && ls <run>/tmp"],
    ["a file of the checkout, made relative to it", "at /home/dev/app/scenarios/x.e2e.ts:12", "at scenarios/x.e2e.ts:12"],
    ["the checkout itself", 'cwd "/home/dev/app"', 'cwd "."'],
    [
      "the home folder, but not a longer name beginning with it",
      "/home/dev/.npm and /home/dev-0123456789",
      "~/.npm and /home/dev-0123456789",
    ],
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
