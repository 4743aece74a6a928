import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join } from "node:path";
import { Writable } from "node:stream";
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk";
import { describe, expect, it, onTestFinished } from "vitest";
import { startStdioPeer } from "../index.ts";

/** An ACP agent the app finds on PATH as `gemini` and starts with `--experimental-acp`. */
const transcript = [
  '{"type":"meta","format":"replay-transcript","version":1,"provider":"jsonrpc-stdio","source":"handwritten"}',
  '{"type":"expect_outbound","spawn":{"args":["--experimental-acp"]}}',
  '{"type":"expect_outbound","message":{"jsonrpc":"2.0","id":0,"method":"initialize"}}',
  '{"type":"emit_inbound","message":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{},"authMethods":[]}}}',
].join("\n");

describe("the stdio peer's launcher", () => {
  it("starts the agent when the app runs it by name from PATH, passing the app's arguments, and is removed on close", async () => {
    const dir = await mkdtemp(join(tmpdir(), "replay-agent-launcher-test-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, "gemini-acp.ndjson"), transcript);
    const peer = await startStdioPeer({ transcript: join(dir, "gemini-acp.ndjson"), executableName: "gemini" });
    onTestFinished(() => peer.close());
    expect(basename(peer.executable)).toBe("gemini");

    const child = spawn("gemini", ["--experimental-acp"], {
      stdio: ["pipe", "pipe", "ignore"],
      env: { ...process.env, PATH: `${dirname(peer.executable)}${delimiter}${process.env["PATH"] ?? ""}` },
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const output = new ReadableStream<Uint8Array>({
      start: (controller) => {
        child.stdout.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
        child.stdout.once("end", () => controller.close());
      },
    });
    const connection = client({ name: "launcher test" }).connect(ndJsonStream(Writable.toWeb(child.stdin), output));
    const initialized = await connection.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    expect(initialized).toEqual({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] });

    child.stdin.end();
    expect(await exited).toBe(0);
    await peer.close();
    expect(peer.status()).toMatchObject({ played: 3, remaining: 0, mismatches: [], next: null });
    expect(peer.requests()).toMatchObject([
      { message: { spawn: { args: ["--experimental-acp"] } }, matched: true, line: 2 },
      { message: { method: "initialize" }, matched: true, line: 3 },
    ]);
    expect(existsSync(dirname(peer.executable))).toBe(false);
  });
});
