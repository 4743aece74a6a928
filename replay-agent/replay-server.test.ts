import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, it, onTestFinished } from "vitest";
import { fixture } from "./fixtures/fixture.ts";
import { startReplayServer, TranscriptError } from "./index.ts";

const serve = async (name: string) => {
  const server = await startReplayServer({ transcript: fixture(name) });
  onTestFinished(() => server.close());
  return server;
};

/** Starts the short tour's request and reads its chunks in the background. */
const startTour = async (url: string) => {
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "replay", maxRetries: 0 });
  const stream = await client.chat.completions.create({
    model: "gpt-4o-mini",
    messages: [{ role: "user", content: "Give me a short tour" }],
    stream: true,
  });
  const chunks: Array<ChatCompletionChunk> = [];
  const reading = (async () => {
    for await (const chunk of stream) chunks.push(chunk);
    return chunks;
  })();
  return { reading };
};

describe("the replay server", () => {
  it("reports status, answers once a pause holds, and resumes it over its control routes", async () => {
    const server = await serve("openai-chat/short-tour.ndjson");
    const control = (method: string, path: string) =>
      fetch(`${server.url}/__replay/${path}`, { method }).then(async (response) => [response.status, await response.json()]);

    expect(await control("GET", "status")).toEqual([
      200,
      {
        played: 0,
        remaining: 11,
        paused: null,
        held: [],
        mismatches: [],
        next: { line: 3, type: "expect_outbound", summary: "expect_outbound POST /v1/chat/completions" },
      },
    ]);
    expect(await control("POST", "resume")).toEqual([
      409,
      {
        error: {
          type: "replay_not_paused",
          message:
            "resume() was called but the transcript is not held at a pause (next: line 3 (expect_outbound POST /v1/chat/completions)). Await paused(name) before calling resume()",
          next: "line 3 (expect_outbound POST /v1/chat/completions)",
          held: [],
        },
      },
    ]);
    expect(await control("GET", "paused?name=the-end")).toEqual([
      409,
      {
        error: {
          type: "replay_pause_not_reached",
          message: expect.stringContaining('the transcript will not reach pause "the-end"'),
          reason: expect.stringContaining('has no pause named "the-end"; its pauses are "mid-stream" (line 8)'),
        },
      },
    ]);
    expect(await control("GET", "nothing")).toEqual([404, { error: expect.objectContaining({ type: "replay_unknown_control_route" }) }]);

    const held = control("GET", "paused?name=mid-stream");
    const { reading } = await startTour(server.url);
    expect(await held).toEqual([200, { paused: "mid-stream", line: 8 }]);
    expect(await control("GET", "status")).toEqual([
      200,
      expect.objectContaining({ played: 5, remaining: 6, paused: "mid-stream", held: [{ name: "mid-stream", line: 8 }] }),
    ]);
    expect(await control("POST", "resume")).toEqual([200, { resumed: "mid-stream", line: 8 }]);
    expect(await reading).toHaveLength(8);
    expect(await control("GET", "status")).toEqual([200, expect.objectContaining({ played: 11, remaining: 0, paused: null, next: null })]);
  });

  it("rejects paused(name) with the reason when the transcript will never hold there", async () => {
    const server = await serve("openai-chat/short-tour.ndjson");
    await expect(server.paused("the-end")).rejects.toThrow(
      `the transcript will not reach pause "the-end": ${fixture("openai-chat/short-tour.ndjson")} has no pause named "the-end"; its pauses are "mid-stream" (line 8)`,
    );
    expect(() => server.resume()).toThrow("resume() was called but the transcript is not held at a pause");

    const { reading } = await startTour(server.url);
    await server.paused("mid-stream");
    await server.paused("mid-stream");
    server.resume();
    await reading;
    await expect(server.paused("mid-stream")).rejects.toThrow(
      "the transcript already played past it (line 8); it is now at the end of the transcript",
    );

    const unplayed = await serve("openai-chat/short-tour.ndjson");
    const waiting = unplayed.paused("mid-stream");
    await unplayed.close();
    await expect(waiting).rejects.toThrow(
      'the transcript will not reach pause "mid-stream": the replay server closed while the transcript was at line 3 (expect_outbound POST /v1/chat/completions)',
    );
  });

  it("answers an unexpected request at once, even while another answer is held at a pause", async () => {
    const server = await serve("openai-chat/short-tour.ndjson");
    const { reading } = await startTour(server.url);
    await server.paused("mid-stream");
    const surprise = await fetch(`${server.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ model: "gpt-4o-mini" }) });
    expect(surprise.status).toBe(400);
    expect(await surprise.json()).toMatchObject({
      error: {
        type: "replay_mismatch",
        line: null,
        diff: "the transcript expects no more requests: all 1 of its expect_outbound lines were already matched",
      },
    });
    expect(server.status()).toMatchObject({
      paused: "mid-stream",
      mismatches: [{ expectedLine: null, request: { body: { model: "gpt-4o-mini" } } }],
    });
    server.resume();
    expect(await reading).toHaveLength(8);
    expect(server.requests().map(({ matched }) => matched)).toEqual([true, false]);
  });

  it("ends a stream held at a pause when it closes", async () => {
    const server = await serve("openai-chat/short-tour.ndjson");
    const { reading } = await startTour(server.url);
    await server.paused("mid-stream");
    await server.close();
    expect((await reading).map((chunk) => chunk.choices[0]?.delta.content)).toEqual(["", "This", " project", " has"]);
  });

  it("streams a long answer in several writes, every chunk once and in order, and holds it at the pause between its halves", async () => {
    const dir = await mkdtemp(join(tmpdir(), "replay-agent-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const [meta, request] = (await readFile(fixture("openai-chat/short-tour.ndjson"), "utf8")).split("\n").slice(1);
    // Enough chunks that each half is written in several writes.
    const half = 1500;
    const chunks = (from: number) =>
      Array.from({ length: half }, (_, index) =>
        JSON.stringify({
          type: "emit_inbound",
          sse: {
            data: {
              id: "chatcmpl-long",
              object: "chat.completion.chunk",
              created: 1733000000,
              model: "gpt-4o-mini",
              choices: [{ index: 0, delta: { content: ` word${from + index}` }, finish_reason: null }],
            },
          },
        }),
      );
    const file = join(dir, "long-tour.ndjson");
    const pause = JSON.stringify({ type: "pause", name: "half-way" });
    await writeFile(
      file,
      [meta, request, ...chunks(0), pause, ...chunks(half), JSON.stringify({ type: "emit_inbound", sse: { data: "[DONE]" } })].join("\n"),
    );
    const server = await startReplayServer({ transcript: file });
    onTestFinished(() => server.close());

    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "replay", maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Give me a short tour" }],
      stream: true,
    });
    let resumed = false;
    let firstHalfArrived = () => {};
    const firstHalf = new Promise<void>((resolve) => {
      firstHalfArrived = resolve;
    });
    const received: Array<{ readonly text: string | null | undefined; readonly afterResume: boolean }> = [];
    const reading = (async () => {
      for await (const chunk of stream) {
        received.push({ text: chunk.choices[0]?.delta.content, afterResume: resumed });
        if (received.length === half) firstHalfArrived();
      }
    })();

    await firstHalf;
    await server.paused("half-way");
    resumed = true;
    server.resume();
    await reading;

    const expected = (from: number, afterResume: boolean) =>
      Array.from({ length: half }, (_, index) => ({ text: ` word${from + index}`, afterResume }));
    expect(received).toEqual([...expected(0, false), ...expected(half, true)]);
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("lets a reader in its own process take each frame of a reply written back to back as it is written when told to turn the loop after every write, and not otherwise", async () => {
    const dir = await mkdtemp(join(tmpdir(), "replay-agent-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const [meta, request] = (await readFile(fixture("openai-chat/short-tour.ndjson"), "utf8")).split("\n").slice(1);
    // Small enough together (about 50 KB) that the socket's buffers take the whole reply without the reader reading.
    const frames = 400;
    const chunk = (index: number) =>
      JSON.stringify({
        type: "emit_inbound",
        sse: { data: { object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: ` w${index}` } }] } },
      });
    const file = join(dir, "back-to-back.ndjson");
    const done = JSON.stringify({ type: "emit_inbound", sse: { data: "[DONE]" } });
    await writeFile(file, [meta, request, ...Array.from({ length: frames }, (_, index) => chunk(index)), done].join("\n"));
    const body = JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Give me a short tour" }], stream: true });

    /** The reads a TCP client in this process makes of the reply (one each turn of the loop that finds bytes waiting), and what it read. */
    const reads = async (turnLoopEveryMs: number | undefined) => {
      const server = await startReplayServer({ transcript: file, turnLoopEveryMs });
      onTestFinished(() => server.close());
      const socket = connect({ host: "127.0.0.1", port: Number(new URL(server.url).port) });
      let count = 0;
      let text = "";
      // The reply's last chunk ends its chunked body: read up to it (the server may keep the connection open).
      const ended = new Promise<void>((resolve) =>
        socket.setEncoding("utf8").on("data", (data: string) => {
          count += 1;
          text += data;
          if (text.endsWith("\r\n0\r\n\r\n")) resolve();
        }),
      );
      socket.write(
        `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      await ended;
      socket.destroy();
      return { reads: count, text: text.replace(/^date: .*\r\n/im, "") };
    };

    // Every write (0 ms): the harness turns it every 1 ms, which pnpm bench route measures.
    const turning = await reads(0);
    const straight = await reads(undefined);
    // The same bytes either way.
    expect(turning.text).toBe(straight.text);
    expect(turning.text.match(/^data: /gm)?.length).toBe(frames + 1);
    // Without turning, the reader reads nothing until the agent stops writing: the reply arrives in a read or two.
    expect(straight.reads).toBeLessThanOrEqual(4);
    // Turning, it reads the frames as they come: most in a read of their own.
    expect(turning.reads).toBeGreaterThan(frames / 2);
  });

  it("refuses to start on an invalid transcript, naming the line", async () => {
    const dir = await mkdtemp(join(tmpdir(), "replay-agent-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, "unterminated.ndjson");
    const [meta, request, firstChunk] = (await readFile(fixture("openai-chat/short-tour.ndjson"), "utf8")).split("\n").slice(1);
    await writeFile(file, [meta, request, firstChunk].join("\n"));
    const failure = startReplayServer({ transcript: file });
    await expect(failure).rejects.toBeInstanceOf(TranscriptError);
    await expect(failure).rejects.toThrow(`${file}:3: the stream answering line 2 ends without [DONE]`);
  });
});
