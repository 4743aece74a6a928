import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer, request, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Duplex, Readable } from "node:stream";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { routedHostsOf, startReplayServer } from "../../replay-agent/index.ts";
import { offMachine } from "../../common/route-hosts.ts";
import { unmatchedHostNames } from "./app-route.ts";
import { startRoute } from "./start-route.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh folder for one test's route, removed after it. */
async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "route-test-"));
  scratch.push(dir);
  return dir;
}

/** An IPv4 address of this machine's outside its loopback, from which a call to the route comes as from another machine. */
function outsideAddress(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((address) => address !== undefined && !address.internal && address.family === "IPv4");
  if (found === undefined) throw new Error("this machine has no IPv4 address outside its loopback to call the route from");
  return found.address;
}

/** One of the replay agent's openai-realtime transcripts. */
const realtimeTranscript = (name: string): string =>
  fileURLToPath(new URL(`../../replay-agent/fixtures/openai-realtime/${name}`, import.meta.url));

/** Resolves once `output` has written `line` whole. */
function written(output: Readable, line: string): Promise<void> {
  return new Promise((resolve) => {
    let text = "";
    const read = (chunk: Buffer): void => {
      text += chunk.toString("utf8");
      if (!text.split("\n").includes(line)) return;
      output.off("data", read);
      resolve();
    };
    output.on("data", read);
  });
}

describe("startRoute", () => {
  it("sends a routed request's method, path, query, headers and body bytes, and a WebSocket's upgrade, messages and close code, to the target unchanged", async () => {
    const seen: { method?: string; url?: string; headers: string[]; body: string }[] = [];
    const target = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        seen.push({ method: request.method, url: request.url, headers: request.rawHeaders, body: Buffer.concat(chunks).toString("hex") });
        response.end("stored");
      });
    });
    // The target echoes each message as it came (text or binary), and closes with its own code when asked.
    const sockets = new WebSocketServer({ noServer: true });
    const upgrades: { url?: string; headers: string[] }[] = [];
    target.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      sockets.handleUpgrade(request, socket, head, (ws) => {
        upgrades.push({ url: request.url, headers: request.rawHeaders });
        ws.on("message", (data, isBinary) =>
          !isBinary && String(data) === "close" ? ws.close(4002, "done") : ws.send(data, { binary: isBinary }),
        );
      }),
    );
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = target.address() as AddressInfo;
      const route = await startRoute({ routes: [{ hosts: ["api.openai.com"], target: `http://127.0.0.1:${port}` }], dir: await folder() });
      try {
        const script = `
          import { request } from "node:https";
          import { WebSocket } from "ws";
          const headers = { "X-Custom-Case": "Va lue", "content-type": "application/octet-stream" };
          const call = request("https://api.openai.com/v1/files?b=2&a=%20x", { method: "PUT", headers }, (answer) => {
            answer.setEncoding("utf8").on("data", (text) => console.log(answer.statusCode, text)).on("end", talk);
          });
          call.end(Buffer.from([0, 255, 10, 13]));
          function talk() {
            const socket = new WebSocket("wss://api.openai.com/v1/realtime?b=2&a=%20x", ["realtime"], { headers: { "X-Custom-Case": "Va lue" } });
            socket.on("open", () => socket.send("hi") || socket.send(Buffer.from([0, 255]), { binary: true }));
            socket.on("message", (data, isBinary) => {
              console.log(isBinary ? "binary " + data.toString("hex") : "text " + data);
              if (isBinary) socket.send("close");
            });
            socket.on("close", (code, reason) => console.log("closed", code, String(reason)));
          }`;
        const result = await execa(process.execPath, ["--input-type=module", "-e", script], { env: route.env, extendEnv: false });
        expect(result.stdout.split("\n")).toEqual(["200 stored", "text hi", "binary 00ff", "closed 4002 done"]);
        expect(seen).toEqual([
          {
            method: "PUT",
            url: "/v1/files?b=2&a=%20x",
            headers: [
              "X-Custom-Case",
              "Va lue",
              "content-type",
              "application/octet-stream",
              "Host",
              "api.openai.com",
              "Connection",
              "close",
              "Content-Length",
              "4",
            ],
            body: "00ff0a0d",
          },
        ]);
        expect(upgrades).toEqual([
          {
            url: "/v1/realtime?b=2&a=%20x",
            headers: [
              "X-Custom-Case",
              "Va lue",
              "Sec-WebSocket-Version",
              "13",
              "Sec-WebSocket-Key",
              expect.any(String),
              "Connection",
              "Upgrade",
              "Upgrade",
              "websocket",
              "Sec-WebSocket-Extensions",
              "permessage-deflate; client_max_window_bits",
              "Sec-WebSocket-Protocol",
              "realtime",
              "Host",
              "api.openai.com",
            ],
          },
        ]);
        expect(route.strays()).toEqual([]);
      } finally {
        await route.stop();
      }
    } finally {
      await new Promise((resolve) => target.close(resolve));
    }
  });

  it("passes an allowed host through for this machine's loopback only, and refuses one neither routed nor allowed", async () => {
    const service = createServer((_, response) => response.end("from the allowed service"));
    const sockets = new WebSocketServer({ server: service });
    sockets.on("connection", (ws) => ws.send("from the allowed service", () => ws.close(4000, "done")));
    await new Promise<void>((resolve) => service.listen(0, "127.0.0.2", resolve));
    try {
      const { port } = service.address() as AddressInfo;
      const route = await startRoute({
        routes: [{ hosts: ["api.anthropic.com"], target: "http://127.0.0.1:9" }],
        allowed: ["127.0.0.2"],
        dir: await folder(),
      });
      try {
        const script = `
          import { WebSocket } from "ws";
          for (const url of process.argv.slice(1, -1)) { const answer = await fetch(url); console.log(answer.status, await answer.text()); }
          const socket = new WebSocket(process.argv.at(-1));
          socket.on("message", (data) => console.log("message", String(data)));
          socket.on("close", (code, reason) => console.log("closed", code, String(reason)));`;
        const urls = [`http://127.0.0.2:${port}/status`, `http://127.0.0.3:${port}/status?full=1`, `ws://127.0.0.2:${port}/live`];
        const result = await execa(process.execPath, ["--input-type=module", "-e", script, ...urls], { env: route.env, extendEnv: false });
        expect(result.stdout.split("\n")).toEqual([
          "200 from the allowed service",
          `502 scenario-prover route: refused GET 127.0.0.3:${port}/status?full=1: 127.0.0.3:${port} is neither routed to the replay agent nor allowed.`,
          "",
          "message from the allowed service",
          "closed 4000 done",
        ]);
        expect(route.strays()).toEqual([{ host: `127.0.0.3:${port}`, method: "GET", path: "/status?full=1", at: expect.any(Number) }]);
        // The same allowed call from another address of this machine's (as from another machine) is refused.
        const away = outsideAddress();
        const answer = await new Promise<{ status: number | undefined; text: string }>((resolve, reject) => {
          const proxy = new URL(route.url);
          request({ host: away, port: proxy.port, path: `http://127.0.0.2:${port}/status`, localAddress: away }, async (response) =>
            resolve({ status: response.statusCode, text: (await response.toArray()).join("") }),
          )
            .on("error", reject)
            .end();
        });
        expect(answer).toEqual({
          status: 502,
          text: `scenario-prover route: refused GET 127.0.0.2:${port}/status: 127.0.0.2:${port} is neither routed to the replay agent nor allowed.\n`,
        });
        // And so is a WebSocket upgrade to it.
        const upgrade = await new Promise<number | undefined>((resolve, reject) => {
          const proxy = new URL(route.url);
          const headers = {
            connection: "Upgrade",
            upgrade: "websocket",
            "sec-websocket-version": "13",
            "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
          };
          request({ host: away, port: proxy.port, path: `http://127.0.0.2:${port}/live`, localAddress: away, headers })
            .on("response", (response) => resolve(response.statusCode))
            .on("upgrade", () => reject(new Error("the route took an upgrade from outside this machine's loopback")))
            .on("error", reject)
            .end();
        });
        expect(upgrade).toBe(502);
      } finally {
        await route.stop();
      }
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
  });

  it("routes the official OpenAIRealtimeWS client's sessions from wss://api.openai.com to the replay agent, and refuses an upgrade to another host, naming it", async () => {
    const turn = await startReplayServer({ transcript: realtimeTranscript("text-turn.ndjson") });
    const dropped = await startReplayServer({ transcript: realtimeTranscript("dropped-session.ndjson") });
    try {
      const route = await startRoute({
        routes: [
          { hosts: routedHostsOf("openai-realtime"), target: turn.url },
          { hosts: ["realtime.example.com"], target: dropped.url },
        ],
        dir: await folder(),
      });
      try {
        // The app: a text turn on the client's own URL, a session that drops mid-response, and one to a host the route refuses.
        const script = `
          import OpenAI from "openai";
          import { OpenAIRealtimeWS } from "openai/realtime/ws";
          const say = (...line) => console.log(JSON.stringify(line));
          const open = (options) => {
            const rt = new OpenAIRealtimeWS({ model: "gpt-realtime" }, new OpenAI({ apiKey: "sk-route", ...options }));
            rt.on("event", (event) => say(event.type, ...(event.type === "response.output_text.delta" ? [event.delta] : [])));
            rt.on("error", (error) => say("error", error.message));
            const closed = new Promise((resolve) => rt.socket.once("close", (code) => resolve(say("close", code))));
            return { rt, closed };
          };
          const question = (text) => ({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text }] } });
          const turn = open({});
          await turn.rt.emitted("session.created");
          turn.rt.send({ type: "session.update", session: { type: "realtime", output_modalities: ["text"], instructions: "Answer in one short sentence." } });
          await turn.rt.emitted("session.updated");
          turn.rt.send(question("What is in this project?"));
          turn.rt.send({ type: "response.create" });
          await turn.rt.emitted("response.done");
          turn.rt.close();
          await turn.closed;
          const dropped = open({ baseURL: "https://realtime.example.com/v1" });
          await dropped.rt.emitted("session.created");
          dropped.rt.send(question("Summarize the README."));
          dropped.rt.send({ type: "response.create" });
          await dropped.closed;
          await open({ baseURL: "https://llm.example.com/v1" }).closed;`;
        const app = execa(process.execPath, ["--input-type=module", "-e", script], { env: route.env, extendEnv: false });
        const secondDelta = written(app.stdout, '["response.output_text.delta"," project"]');
        // Held at the transcript's pause, the app has had the two deltas before it: the route holds no message back.
        await turn.paused("mid-response");
        await secondDelta;
        turn.resume();
        const { stdout } = await app;
        const opened = [
          "session.created",
          "conversation.item.added",
          "conversation.item.done",
          "response.created",
          "response.output_item.added",
          "conversation.item.added",
          "response.content_part.added",
        ];
        expect(stdout.split("\n").map((line) => JSON.parse(line) as string[])).toEqual([
          ["session.created"],
          ["session.updated"],
          ...opened.slice(1).map((type) => [type]),
          ["response.output_text.delta", "This"],
          ["response.output_text.delta", " project"],
          ["response.output_text.delta", " has two"],
          ["response.output_text.delta", " files."],
          ["response.output_text.done"],
          ["response.content_part.done"],
          ["response.output_item.done"],
          ["conversation.item.done"],
          ["response.done"],
          ["close", 1000],
          // The replay agent drops the connection with no close frame (1006); mockttp closes the app's with a close frame without a code.
          ...opened.map((type) => [type]),
          ["response.output_text.delta", "The"],
          ["response.output_text.delta", " README"],
          ["close", 1005],
          ["error", "Unexpected server response: 502"],
          ["close", 1006],
        ]);
        expect(turn.status()).toMatchObject({ played: 22, remaining: 0, mismatches: [] });
        expect(dropped.status()).toMatchObject({ remaining: 0, mismatches: [] });
        expect(turn.requests()[0]).toMatchObject({ method: "GET", path: "/v1/realtime?model=gpt-realtime", matched: true });
        expect(route.strays()).toEqual([
          { host: "llm.example.com", method: "GET", path: "/v1/realtime?model=gpt-realtime", at: expect.any(Number) },
        ]);
      } finally {
        await route.stop();
      }
    } finally {
      await Promise.all([turn.close(), dropped.close()]);
    }
  });

  it("names an HTTPS call to an IP address, which no certificate of the route's can answer: its TLS handshake fails on the app's side, before any request, and nothing leaves the machine", async () => {
    const route = await startRoute({ routes: [{ hosts: ["api.openai.com"], target: "http://127.0.0.1:9" }], dir: await folder() });
    try {
      // Python's standard library and Node's fetch (through the route's preload), each as an app calls an address in its code.
      const python = await execa(
        "python3",
        [
          "-c",
          'import urllib.request\ntry: urllib.request.urlopen("https://192.0.2.10/v1/models")\nexcept Exception as error: print(error)',
        ],
        { env: route.env, extendEnv: false },
      );
      expect(python.stdout).toContain("certificate verify failed: IP address mismatch");
      const node = await execa(
        process.execPath,
        ["-e", 'fetch("https://[2001:db8::10]/v1/models").catch((error) => console.log(error.cause?.message ?? error.message))'],
        { env: route.env, extendEnv: false },
      );
      expect(node.stdout).toContain("IP: 2001:db8::10 is not in the cert's list");
      // The route hears of each failed handshake as the app gives up; the TLS alert or reset may reach it a moment after.
      await expect
        .poll(() => route.strays())
        .toEqual([
          { host: "an IP address", method: "CONNECT", path: "", at: expect.any(Number), tlsFailure: expect.any(String) },
          { host: "an IP address", method: "CONNECT", path: "", at: expect.any(Number), tlsFailure: expect.any(String) },
        ]);
    } finally {
      await route.stop();
    }
  });

  it("notes a name of app.route.hosts that is none of the test's transcripts while one of them has no list, as a misspelt name", () => {
    const agents = [
      { name: "chat", url: "http://127.0.0.1:9", provider: "anthropic-messages" },
      { name: "title", url: "http://127.0.0.1:8", provider: "openai-chat" },
    ] as const;
    const titel = { hosts: { chat: ["llm.example.com"], titel: ["api.openai.com"] } };
    expect(unmatchedHostNames(titel, agents)).toBe(
      'app.route.hosts names "titel", which is none of this test\'s transcripts (chat, title), while "title" gets its provider\'s hosts, ' +
        "as no list names it: if a name is misspelt, write it as the transcript's name in test.use.",
    );
    // Names of another test's transcripts, with each of this test's listed or none listed by name, say nothing.
    expect(unmatchedHostNames({ hosts: { chat: ["a.example"], title: ["b.example"], summary: ["c.example"] } }, agents)).toBeUndefined();
    expect(unmatchedHostNames({ hosts: { chat: ["a.example"] } }, agents)).toBeUndefined();
    expect(unmatchedHostNames({ hosts: ["a.example"] }, agents)).toBeUndefined();
    expect(unmatchedHostNames(true, agents)).toBeUndefined();
  });

  it("takes as allowed only hosts on this machine, saying why each other one is not", async () => {
    expect(
      await offMachine([
        "127.0.0.2",
        "[::1]:8080",
        "localhost:5432",
        "db.localhost",
        "*.localhost",
        "10.0.0.5",
        "*.example.com",
        "nowhere.invalid",
      ]),
    ).toEqual([
      "10.0.0.5 (not a loopback address)",
      "*.example.com (a pattern outside .localhost)",
      "nowhere.invalid (no address found for nowhere.invalid)",
    ]);
  });

  it("stops with no listener and no file left", async () => {
    const dir = await folder();
    const route = await startRoute({ routes: [{ hosts: ["api.anthropic.com"], target: "http://127.0.0.1:9" }], dir });
    expect(await readdir(dir)).toHaveLength(1);
    await route.stop();
    expect(await readdir(dir)).toEqual([]);
    const refused = await new Promise<NodeJS.ErrnoException>((resolve) => request(route.url).on("error", resolve).end());
    expect(refused.code).toBe("ECONNREFUSED");
  });
});
