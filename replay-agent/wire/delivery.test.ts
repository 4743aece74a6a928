import { describe, expect, it, onTestFinished } from "vitest";
import { clients } from "../fixtures/clients.ts";
import { rawPost } from "../fixtures/raw-http.ts";
import { fixtureLines, writeVariant, type Line } from "../fixtures/variant.ts";
import { startReplayServer } from "../index.ts";
import type { NewHttpProvider } from "../transcript/providers.ts";
import { sseFrameText } from "./sse.ts";
import type { SseFrame } from "../transcript/schema.ts";

const providers: ReadonlyArray<NewHttpProvider> = ["openai-chat", "openai-responses", "anthropic-messages"];

const serveFile = async (transcript: string) => {
  const server = await startReplayServer({ transcript });
  onTestFinished(() => server.close());
  return server;
};

/** short-tour's first request, its lines, and the indices of its first two sse frames. */
const tour = async (provider: NewHttpProvider) => {
  const lines = await fixtureLines(`${provider}/short-tour.ndjson`);
  const frames = lines.flatMap((line, index) => (line.type === "emit_inbound" && "sse" in line ? [index] : []));
  const [first = 0, second = 0] = frames;
  const request = lines[1]?.["request"] as { path: string; body: unknown };
  const frameAt = (index: number) => lines[index]?.["sse"] as SseFrame;
  return { lines, first, second, request, frameAt };
};

describe.each(providers)("%s delivery of frames", (provider) => {
  it("writes every frame on its own, the frame joined before a cut in one write with its first piece, and the rest only on resume", async () => {
    const { lines, first, second, request, frameAt } = await tour(provider);
    const secondText = Buffer.from(sseFrameText(frameAt(second)));
    const half = Math.floor(secondText.length / 2);
    const cutLines = lines.map((line, index): Line => {
      if (index === first) return { ...line, join: true };
      if (index === second) return { ...line, cut: [{ at: half, pause: "half-event" }] };
      return line;
    });
    const server = await serveFile(await writeVariant(cutLines));
    const answer = rawPost(server.url, request.path, request.body);
    await server.paused("half-event");
    const joined = sseFrameText(frameAt(first)) + secondText.subarray(0, half).toString("utf8");
    expect(await answer.until((chunks) => chunks.length >= 1)).toEqual([joined]);
    expect(server.status()).toMatchObject({
      paused: "half-event",
      next: { type: "pause", line: second + 1, summary: `pause half-event (inside the frame at line ${second + 1}, after byte ${half})` },
    });
    server.resume();
    await server.paused("mid-stream");
    const pause = lines.findIndex((line) => line.type === "pause");
    const framesOf = (from: number, to: number) =>
      lines
        .slice(from, to)
        .flatMap((line) => (line.type === "emit_inbound" && "sse" in line ? [sseFrameText(line["sse"] as SseFrame)] : []));
    const beforePause = [joined, secondText.subarray(half).toString("utf8"), ...framesOf(second + 1, pause)];
    expect(await answer.until((chunks) => chunks.length >= beforePause.length)).toEqual(beforePause);
    server.resume();
    expect(await answer.all()).toEqual([...beforePause, ...framesOf(pause + 1, lines.length)]);
  });

  it("lets the official client parse a frame cut into three pieces across a delay and a pause", async () => {
    const { lines, second, frameAt } = await tour(provider);
    const size = Buffer.byteLength(sseFrameText(frameAt(second)));
    const cutLines = lines.map((line, index): Line =>
      index === second ? { ...line, cut: [5, { at: 12, delay: 1 }, { at: size - 3, pause: "tail" }] } : line,
    );
    const server = await serveFile(await writeVariant(cutLines));
    const received: Array<string> = [];
    const reading = (async () => {
      for await (const item of await clients[provider].stream(server.url, "Give me a short tour"))
        if ("text" in item) received.push(item.text);
    })();
    await server.paused("tail");
    expect(server.status()).toMatchObject({ held: [{ name: "tail" }] });
    server.resume();
    await server.paused("mid-stream");
    server.resume();
    await reading;
    expect(received).toEqual(["This", " project", " has", " two", " files."]);
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("sends a head line's status and headers with the stream, over the defaults", async () => {
    const { lines, request } = await tour(provider);
    const head: Line = {
      type: "emit_inbound",
      head: { status: 200, headers: { "Content-Type": "text/event-stream", "x-request-id": "req_head1", "content-length": "9" } },
    };
    const server = await serveFile(await writeVariant([...lines.slice(0, 2), head, ...lines.slice(2)]));
    const response = await fetch(`${server.url}${request.path}`, { method: "POST", body: JSON.stringify(request.body) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("x-request-id")).toBe("req_head1");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("content-length")).toBeNull();
    await server.paused("mid-stream");
    server.resume();
    expect(await response.text()).toContain("data: ");
  });
});
