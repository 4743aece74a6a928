import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer, request, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { offMachine, startRoute } from "./start-route.ts";

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
