// The replay bench's reader, in a process of its own, as an app is: the servers' writes and its
// reads do not share one event loop, where a server whose writes complete at once would keep the
// reader from reading until the stream is all written. It reads what its parent asks for and
// answers with the run; it loads nothing of the replay agent.
import { fork } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath, pathToFileURL } from "node:url";
import { WebSocket } from "ws";

/** What to read: the body of an HTTP answer to a POST of `body`, or the `count` messages a WebSocket server answers `message` with. */
export type ReadRequest =
  | { readonly transport: "http"; readonly url: string; readonly body: string }
  | { readonly transport: "websocket"; readonly url: string; readonly message: string; readonly count: number };

/** One read: ms from sending the request (or message) to the first byte (or message) of the answer and to its last, and the bytes read. */
export interface ReadRun {
  readonly total: number;
  readonly firstByte: number;
  readonly bytes: number;
}

/** Streams one answer from `url` with plain fetch, as an app reads a streamed HTTP answer. */
async function readHttp(url: string, body: string): Promise<ReadRun> {
  const sent = performance.now();
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error(`bench: ${url} answered ${response.status} without a body`);
  let firstByte = Number.NaN;
  let bytes = 0;
  for (let next = await reader.read(); next.done !== true; next = await reader.read()) {
    if (Number.isNaN(firstByte)) firstByte = performance.now() - sent;
    bytes += next.value.length;
  }
  return { total: performance.now() - sent, firstByte, bytes };
}

/**
 * Opens a WebSocket connection to `url`, waits for the server's greeting (its first message),
 * sends `message` and hands each of the `count` messages that answer it to `received`, then closes
 * the connection and waits until it has closed. Resolves with the greeting and ms from sending
 * `message` to the first and the last message of the answer.
 */
export async function converse(
  url: string,
  message: string,
  count: number,
  received: (text: Buffer) => void,
): Promise<{ readonly greeting: Buffer; readonly total: number; readonly firstMessage: number }> {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  const closed = once(socket, "close");
  try {
    const [greeting] = (await once(socket, "message")) as [Buffer];
    const sent = performance.now();
    return await new Promise((resolve, reject) => {
      let left = count;
      let firstMessage = Number.NaN;
      socket.once("close", () => reject(new Error(`bench: ${url} closed with ${left} of ${count} messages unread`)));
      socket.on("message", (data, isBinary) => {
        if (Number.isNaN(firstMessage)) firstMessage = performance.now() - sent;
        if (isBinary || !Buffer.isBuffer(data)) return reject(new Error(`bench: ${url} sent a binary message, not JSON text`));
        received(data);
        left -= 1;
        if (left === 0) resolve({ greeting, total: performance.now() - sent, firstMessage });
      });
      socket.send(message);
    });
  } finally {
    socket.close();
    await closed;
  }
}

async function read(request: ReadRequest): Promise<ReadRun> {
  if (request.transport === "http") return readHttp(request.url, request.body);
  let bytes = 0;
  const run = await converse(request.url, request.message, request.count, (text) => {
    bytes += text.length;
  });
  return { total: run.total, firstByte: run.firstMessage, bytes };
}

/** The argument that makes this file the reader: it reads what its parent sends and answers with the run. */
const readerFlag = "--reader";

/** Starts a reader in a process of its own. */
export function startReader() {
  const child = fork(fileURLToPath(import.meta.url), [readerFlag], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return {
    read: async (request: ReadRequest): Promise<ReadRun> => {
      const answered = once(child, "message") as Promise<[ReadRun]>;
      const stop = new AbortController();
      const exited = once(child, "exit", { signal: stop.signal }).then(([code]) => {
        throw new Error(`bench: the reader exited (${String(code)}) reading ${request.url}`);
      });
      child.send(request);
      try {
        return (await Promise.race([answered, exited]))[0];
      } finally {
        stop.abort();
      }
    },
    close: async () => {
      const exited = once(child, "exit");
      child.disconnect();
      await exited;
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === readerFlag) {
  process.on("message", (request: ReadRequest) => {
    void read(request).then((run) => process.send?.(run));
  });
}
