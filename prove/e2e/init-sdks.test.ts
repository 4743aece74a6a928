import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installBuiltHarness } from "../../test-support/built-package.ts";
import { initScenarios } from "../init/init.ts";

/** This checkout, whose node_modules hold each SDK and the Playwright the fixtures run. */
const checkout = resolve(import.meta.dirname, "../..");

let work: string;

beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), "prove-init-sdks-")));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/**
 * A chat app's server on `call`, the SDK's own streaming call: its page's form asks the question in
 * `q` at /ask, and the page shows the answer. The model is a literal in the code, as apps write it.
 */
const chatServer = (imports: string, call: string) => `${imports}
const http = require("node:http");

async function answer(q) {
  let text = "";
${call}
  return text;
}

http
  .createServer(async (request, response) => {
    const url = new URL(request.url, "http://chat");
    const form = '<form action="/ask"><input name="q" aria-label="Message"></form>';
    const shown = url.pathname === "/ask" ? \`<p>\${await answer(url.searchParams.get("q") ?? "")}</p>\` : "<h1>Chat</h1>";
    response.writeHead(200, { "content-type": "text/html" });
    response.end(\`<!doctype html><title>Chat</title>\${form}\${shown}\`);
  })
  .listen(Number(process.env.PORT), "127.0.0.1");
`;

interface SdkApp {
  /** The packages package.json lists, linked from this checkout's node_modules at the version installed here. */
  readonly packages: ReadonlyArray<string>;
  readonly server: string;
  /** What init prints of how it reaches the replay agent: its provider or route line. */
  readonly reach: RegExp;
}

const apps: Readonly<Record<string, SdkApp>> = {
  "@anthropic-ai/sdk": {
    packages: ["@anthropic-ai/sdk"],
    server: chatServer(
      'const Anthropic = require("@anthropic-ai/sdk");',
      '  const stream = new Anthropic().messages.stream({ model: "claude-haiku-4-5", max_tokens: 512, messages: [{ role: "user", content: q }] });\n  text = await stream.finalText();',
    ),
    reach: /^provider: ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY /,
  },
  "@ai-sdk/google": {
    packages: ["ai", "@ai-sdk/google"],
    server: chatServer(
      'const { streamText } = require("ai");\nconst { google } = require("@ai-sdk/google");',
      '  const result = streamText({ model: google("gemini-2.5-flash"), prompt: q });\n  for await (const part of result.textStream) text += part;',
    ),
    reach: /^route: true \(@ai-sdk\/google reads no base URL variable/,
  },
  "@google/genai": {
    packages: ["@google/genai"],
    server: chatServer(
      'const { GoogleGenAI } = require("@google/genai");',
      '  const stream = await new GoogleGenAI({}).models.generateContentStream({ model: "gemini-2.5-flash", contents: q });\n  for await (const chunk of stream) text += chunk.text ?? "";',
    ),
    reach: /^provider: GOOGLE_GEMINI_BASE_URL, GOOGLE_API_KEY /,
  },
  "@aws-sdk/client-bedrock-runtime": {
    packages: ["@aws-sdk/client-bedrock-runtime"],
    server: chatServer(
      'const { BedrockRuntimeClient, ConverseStreamCommand } = require("@aws-sdk/client-bedrock-runtime");',
      '  const out = await new BedrockRuntimeClient({}).send(\n    new ConverseStreamCommand({ modelId: "anthropic.claude-3-5-haiku-20241022-v1:0", messages: [{ role: "user", content: [{ text: q }] }] }),\n  );\n  for await (const event of out.stream) text += event.contentBlockDelta?.delta?.text ?? "";',
    ),
    reach: /^provider: AWS_ENDPOINT_URL_BEDROCK_RUNTIME, /,
  },
  "cohere-ai": {
    packages: ["cohere-ai"],
    server: chatServer(
      'const { CohereClientV2 } = require("cohere-ai");',
      '  const stream = await new CohereClientV2({}).chatStream({ model: "command-a-03-2025", messages: [{ role: "user", content: q }] });\n  for await (const event of stream) if (event.type === "content-delta") text += event.delta?.message?.content?.text ?? "";',
    ),
    reach: /^route: true \(cohere-ai reads no base URL variable/,
  },
  ollama: {
    packages: ["ollama"],
    // The client reads no variable: init's note says to pass OLLAMA_HOST, as this app does.
    server: chatServer(
      'const { Ollama } = require("ollama");',
      '  const parts = await new Ollama({ host: process.env.OLLAMA_HOST }).chat({ model: "llama3.2", stream: true, messages: [{ role: "user", content: q }] });\n  for await (const part of parts) text += part.message.content;',
    ),
    reach: /^provider: OLLAMA_HOST /,
  },
};

/**
 * The app's repository: package.json listing the SDK at the version installed here, node_modules
 * linking it from this checkout, and scenario-prover as an installed package exports it (this
 * build's harness), beside the Playwright it imports.
 */
async function sdkRepository(name: string, app: SdkApp): Promise<string> {
  const dir = join(work, name.replace(/[@/]/g, "_"));
  const versions: Record<string, string> = {};
  for (const pkg of app.packages) {
    const target = await realpath(join(checkout, "node_modules", pkg));
    versions[pkg] = (JSON.parse(await readFile(join(target, "package.json"), "utf8")) as { version: string }).version;
    await mkdir(dirname(join(dir, "node_modules", pkg)), { recursive: true });
    await symlink(target, join(dir, "node_modules", pkg));
  }
  await installBuiltHarness(join(dir, "node_modules"));
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name: "chat", private: true, scripts: { start: "node server.js" }, dependencies: versions }),
  );
  await writeFile(join(dir, "server.js"), app.server);
  await execa("git", ["init", "-q", "-b", "main"], { cwd: dir });
  return dir;
}

describe("init in a chat app on each provider SDK", () => {
  it.concurrent.each(Object.keys(apps))(
    "%s: the example init writes passes as it is, its second test playing init's transcript through the SDK",
    async (name) => {
      const app = apps[name];
      if (app === undefined) throw new Error(`no app for ${name}`);
      const dir = await sdkRepository(name, app);

      // Its packages are links into this checkout: init's own try of the install and the start (npm install) is left to
      // init.test.ts, and the run below starts the app.
      const init = await initScenarios(dir, { tryCommands: async () => ({ worked: [], failed: [] }) });

      expect(init.detected.filter((line) => app.reach.test(line))).toHaveLength(1);
      // The route loads mockttp, which the app's repository does not list: init says how to add it.
      const routed = app.reach.source.startsWith("^route");
      expect(init.notes.filter((note) => note.startsWith("app.route needs the mockttp package"))).toEqual(
        routed
          ? [
              "app.route needs the mockttp package, which scenario-prover loads only for the route: run `npm install -D mockttp@4.6.3` before running the example.",
            ]
          : [],
      );
      expect(init.detected.at(-1)).toMatch(
        /^model: (claude-haiku-4-5|gemini-2\.5-flash|anthropic\.claude-3-5-haiku-20241022-v1:0|command-a-03-2025) \(named in server\.js\)$|^model: the default of replay-agent new/,
      );
      const run = await execa(
        process.execPath,
        [join(checkout, "node_modules/@playwright/test/cli.js"), "test", "-c", "scenarios.config.ts", "--reporter=line"],
        {
          cwd: dir,
          reject: false,
          stdin: "ignore",
        },
      );
      expect(run.exitCode, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^ {2}2 passed \(/m);
    },
  );
});
