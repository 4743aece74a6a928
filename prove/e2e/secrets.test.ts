import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makeExpressRepo, type ExpressRepo } from "./support/express-repo.ts";
import { checkout, prove, prover, reportDir, type ProverRun } from "./support/prover.ts";
import { found, npmrcToken, planted, plantDeveloper, plantedEnv, pngMetadata, textsUnder } from "../test-fixtures/secrets/planted.ts";

/** Strings shaped like credentials that the app under test prints itself: no variable holds them. */
const printed = {
  openai: "sk-proj-PRINTEDopenai1Wm4bY7nQ2sV5xZ8cE3fG6hJ9kL0pR",
  anthropic: "sk-ant-api03-PRINTEDanthropic1Wm4bY7nQ2sV5xZ8cE3fG6hJ9k",
  awsKeyId: "AKIAPRINTED1WM4BY7NQ",
  npm: "npm_PRINTEDnpm1Wm4bY7nQ2sV5xZ8cE3fG6hJ9kL0",
  slack: "xoxb-1234567890-PRINTEDslack1Wm4bY7nQ2s",
  stripe: "sk_live_PRINTEDstripe1Wm4bY7nQ2sV5x",
  privateKey:
    "-----BEGIN PRIVATE KEY-----\nPRINTEDkey1Wm4bY7nQ2sV5xZ8cE3fG6hJ9kL0pRMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7PRINTED2sV5xZ8cE3fG6hJ9kL0pR\n-----END PRIVATE KEY-----",
  // On the page, in a <meta> of its <head>: only the trace holds it.
  google: "AIzaPRINTEDgoogle1Wm4bY7nQ2sV5xZ8cE3fGH",
  // Beside the wrong total on base: the error message, report.md and the trace hold it.
  github: "ghp_PRINTEDgithub1Wm4bY7nQ2sV5xZ8cE3fG6h",
};
const scenario = "prove/test-fixtures/secrets/debug-total.e2e.ts";
const config = "prove/test-fixtures/secrets/playwright.config.ts";

/** The first line a process prints on `stream`. */
const firstLine = (stream: Readable) =>
  new Promise<string>((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (!text.includes("\n")) return;
      stream.off("data", onData);
      resolve(text.slice(0, text.indexOf("\n")));
    };
    stream.on("data", onData);
    stream.once("end", () => reject(new Error(`the process printed no line: ${JSON.stringify(text)}`)));
  });

/**
 * The sum app made to snoop and to print: at start it writes what it can see of the developer's
 * secrets (its environment, its HOME's .npmrc, git's config and credential helper)
 * to `<seen>/<pid>.json`, and prints credential-shaped strings of its own; its page carries one
 * in a <meta>, and a wrong total comes with a debug token.
 */
function leakyServer(server: string, seen: string): string {
  const snoop = `import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const run = (command, args, input = "") => {
  try {
    return execFileSync(command, args, { input, encoding: "utf8", stdio: "pipe", env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } });
  } catch (error) {
    return \`\${error.stdout ?? ""}\${error.stderr ?? ""}\`;
  }
};
const read = (file) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};
writeFileSync(join(${JSON.stringify(seen)}, \`\${process.pid}.json\`), JSON.stringify({
  env: process.env,
  npmrc: read(join(process.env.HOME ?? "", ".npmrc")),
  gitConfig: run("git", ["config", "--list", "--show-origin"]),
  gitCredential: run("git", ["credential", "fill"], "protocol=https\\nhost=github.com\\n\\n"),
}));
console.log(${JSON.stringify(`payments ready: openai ${printed.openai}, anthropic ${printed.anthropic}`)});
console.log(${JSON.stringify(`uploads: aws key id ${printed.awsKeyId}; publish token ${printed.npm}`)});
console.log(${JSON.stringify(`alerts: slack ${printed.slack}; billing ${printed.stripe}`)});
console.error(${JSON.stringify(`tls key:\n${printed.privateKey}`)});
const withDebug = (total) => (typeof total === "number" ? total : total + ${JSON.stringify(` (debug token ${printed.github})`)});
`;
  return server
    .replace('import express from "express";\n', `import express from "express";\n${snoop}`)
    .replace("<title>Sum</title>", `<title>Sum</title><meta name='maps-key' content='${printed.google}'>`)
    .replace(
      "response.json({ total: add(request.query.a, request.query.b) })",
      "response.json({ total: withDebug(add(request.query.a, request.query.b)) })",
    );
}

let work: string;
/** The developer's home folder the prover runs with: ~/.npmrc and ~/.gitconfig hold secrets. */
let home: string;
/** Where the app writes what it can see, one file per start. */
let seen: string;
let repo: ExpressRepo;
const out = (name: string) => join(work, "reports", name);

let leaky: Promise<ProverRun> | undefined;
/** The proof of the app that snoops and prints, run once for the tests that read its report. */
const leakyProof = () =>
  (leaky ??= prove([
    "--base",
    "leaky-bug",
    "--head",
    "leaky-fix",
    scenario,
    "--repo",
    repo.dir,
    "--config",
    config,
    "--out",
    out("leaky"),
  ]));

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "prove-secrets-"));
  home = join(work, "home");
  seen = join(work, "seen");
  await mkdir(seen);
  repo = await makeExpressRepo(work);
  for (const [from, tag] of [
    ["bug", "leaky-bug"],
    ["fix", "leaky-fix"],
  ] as const) {
    await repo.git("checkout", "-q", from);
    await writeFile(join(repo.dir, "server.js"), leakyServer(await readFile(join(repo.dir, "server.js"), "utf8"), seen));
    // The project's .npmrc names the token a developer exports, as a package that installs from a private registry does.
    await writeFile(join(repo.dir, ".npmrc"), "//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n");
    await repo.git("add", "-A");
    await repo.git("-c", "user.name=Sum Dev", "-c", "user.email=dev@example.com", "commit", "-qm", `Print a debug token (${from})`);
    await repo.git("tag", tag);
  }
  await repo.git("checkout", "-q", "main");

  // From here on, the prover's helpers start it in the developer's environment.
  await plantDeveloper(home);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(work, { recursive: true, force: true });
});

describe("secrets planted in the developer's environment, ~/.npmrc and ~/.gitconfig", () => {
  it("never reach a plain app, its server log, its trace, its screenshots or its report; what the app prints in a credential's shape is taken out and counted", async () => {
    const { exitCode, report, stderr } = await leakyProof();
    const dir = reportDir(report);
    expect([exitCode, report.verdict], stderr).toEqual([0, "proved"]);
    expect([report.base.trace, report.base.serverLog]).toEqual(["base/trace.zip", "base/server.log"]);

    // What the app could see, at base and at head: none of it.
    const dumps = await readdir(seen);
    expect(dumps).toHaveLength(2);
    for (const dump of dumps) {
      const text = await readFile(join(seen, dump), "utf8");
      expect(found([{ file: dump, text }], planted, "PLANTED")).toEqual([]);
      const view = JSON.parse(text) as { env: Record<string, string>; gitCredential: string };
      expect(view.env.HOME).not.toBe(home);
      expect(view.gitCredential).not.toContain("password=");
    }

    // Every file of the report folder, each trace's files decompressed, each image's metadata, and the prover's output.
    const texts = [...(await textsUnder(dir)), { file: "stderr", text: stderr }];
    expect(texts.filter(({ file }) => file.includes("trace.zip:")).length).toBeGreaterThan(3);
    expect(found(texts, planted, "PLANTED")).toEqual([]);
    expect(found(texts, Object.values(printed), "PRINTED")).toEqual([]);
    expect(report.redactions).toEqual({ environment: 0, secretShaped: Object.keys(printed).length });

    const marker = "[redacted:secret-shaped]";
    expect(report.base.attempts[0]?.error?.message).toContain(`Received: "Total: 12 (debug token ${marker})"`);
    expect(await readFile(join(dir, "report.md"), "utf8")).toContain(`Total: 12 (debug token ${marker})`);
    expect((await readFile(join(dir, "base/server.log"), "utf8")).split("\n")).toEqual(
      expect.arrayContaining([
        `payments ready: openai ${marker}, anthropic ${marker}`,
        `uploads: aws key id ${marker}; publish token ${marker}`,
        `alerts: slack ${marker}; billing ${marker}`,
        "tls key:",
        marker,
      ]),
    );
    // The trace's files that hold the token beside the total, and the key of the page's <meta>, taken out.
    const holding = (text: string) => texts.filter((entry) => entry.file.includes("base/trace.zip:") && entry.text.includes(text)).length;
    expect(holding(`debug token ${marker}`)).toBeGreaterThan(0);
    expect(holding(`["META",{"name":"maps-key","content":"${marker}"}]`)).toBeGreaterThan(0);
  });

  it("never reach pr.md or the branch the report's images are published to", async () => {
    const dir = reportDir((await leakyProof()).report);
    const remote = join(work, "remote.git");
    await execa("git", ["init", "-q", "--bare", remote]);
    await repo.git("remote", "add", "origin", pathToFileURL(remote).href);
    // Run in the sum app's checkout, whose origin it publishes to.
    const publish = await execa("node", [prover, "publish", dir, "--image-url", "https://img.example/proofs/"], {
      cwd: repo.dir,
      reject: false,
      stdin: "ignore",
    });
    expect(publish.exitCode, publish.stderr).toBe(0);

    const git = (...args: string[]) => execa("git", args, { cwd: remote, encoding: "buffer" });
    const files = Buffer.from((await git("ls-tree", "-r", "--name-only", "scenario-proofs")).stdout)
      .toString("utf8")
      .split("\n");
    expect(files.filter((file) => file.endsWith(".png")).length).toBeGreaterThan(2);
    const images = await Promise.all(
      files
        .filter((file) => file.endsWith(".png"))
        .map(async (file) => ({
          file: `scenario-proofs:${file} (metadata)`,
          text: pngMetadata(Buffer.from((await git("cat-file", "blob", `scenario-proofs:${file}`)).stdout)),
        })),
    );
    const pr = await readFile(join(dir, "pr.md"), "utf8");
    const texts = [
      { file: "pr.md", text: pr },
      // Every object of the remote, commits and trees and blobs, as git stores them before compression.
      { file: "remote.git", text: Buffer.from((await git("cat-file", "--batch-all-objects", "--batch")).stdout).toString("latin1") },
      ...images,
      { file: "publish's output", text: `${publish.stdout}${publish.stderr}` },
    ];
    expect(found(texts, planted, "PLANTED")).toEqual([]);
    expect(found(texts, Object.values(printed), "PRINTED")).toEqual([]);
    expect(pr).toContain("Total: 12 (debug token [redacted:secret-shaped])");
  });

  it("never reach a transcript the replay agent records, though the app sends them all to the provider", async () => {
    // The real provider, played by a server that answers with what it was asked.
    const authorizations: Array<string | undefined> = [];
    const provider = createServer((request, response) => {
      authorizations.push(request.headers.authorization);
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.once("end", () => {
        const question = (JSON.parse(body) as { messages: Array<{ content: string }> }).messages[0]?.content ?? "";
        const message = { role: "assistant", content: `You sent me: ${question}` };
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            id: "chatcmpl-1",
            object: "chat.completion",
            created: 1733000000,
            model: "gpt-4o-mini",
            choices: [{ index: 0, message, finish_reason: "stop" }],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
    const transcript = join(work, "recorded.ndjson");
    const recorder = execa(
      process.execPath,
      [
        join(checkout, "bin/replay-agent.mjs"),
        "record",
        "--provider",
        "openai-chat",
        "--upstream",
        `http://127.0.0.1:${(provider.address() as AddressInfo).port}`,
        "--out",
        transcript,
      ],
      { reject: false },
    );
    try {
      const url = /^replay-agent recording on (http:\/\/127\.0\.0\.1:\d+)$/.exec(await firstLine(recorder.stdout))?.[1];
      // An agent app whose tools ran `env` and `cat ~/.npmrc`, sending their output to the model.
      const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "replay" });
      const environment = Object.entries(plantedEnv)
        .map(([name, value]) => `${name}=${value}`)
        .join("\n");
      const content = `My environment:\n${environment}\nMy ~/.npmrc:\n//registry.npmjs.org/:_authToken=${npmrcToken}`;
      const answer = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content }] });
      expect(answer.choices[0]?.message.content).toContain(plantedEnv.AWS_SECRET_ACCESS_KEY);
      expect(authorizations).toEqual([`Bearer ${plantedEnv.OPENAI_API_KEY}`]);
    } finally {
      recorder.kill("SIGINT");
      await recorder;
      await new Promise<void>((resolve) => provider.close(() => resolve()));
    }
    const recorded = await recorder;
    expect(recorded.exitCode, recorded.stderr).toBe(0);
    const text = await readFile(transcript, "utf8");
    expect(found([{ file: transcript, text }], [...Object.values(plantedEnv), npmrcToken], "PLANTED")).toEqual([]);
    expect(text).toContain("My environment:");
  });
});
