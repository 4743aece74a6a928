// Talks to the route bench's app (route-app.mjs): a Node process of its own, started as an app is,
// that streams a reply with the official Anthropic client each time it is asked.
import { fork } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";

/** One streamed reply: ms from the client's call to its first event and to its last, the events, and each non-ping event's ms when asked for. */
export interface StreamRun {
  readonly first: number;
  readonly total: number;
  readonly frames: number;
  readonly arrivals: ReadonlyArray<number>;
}

/** The raw answer to the same request with the app's fetch: status, head (name and value pairs) and body bytes in base64. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: string;
}

/** Starts the app with exactly `env` (nothing of the bench's own environment) and plain node, no loader of the bench's. */
export function startApp(env: Readonly<Record<string, string>>) {
  const child = fork(join(import.meta.dirname, "route-app.mjs"), [], {
    env: { ...env },
    execArgv: [],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ask = async <Answer>(request: object): Promise<Answer> => {
    const answered = once(child, "message") as Promise<[Answer | { readonly error: string }]>;
    const stop = new AbortController();
    const exited = once(child, "exit", { signal: stop.signal }).then(([code]) => {
      throw new Error(`bench: the route bench's app exited (${String(code)}) before it answered`);
    });
    child.send(request);
    try {
      const [answer] = await Promise.race([answered, exited]);
      if (typeof answer === "object" && answer !== null && "error" in answer)
        throw new Error(`bench: the route bench's app failed: ${answer.error}`);
      return answer;
    } finally {
      stop.abort();
    }
  };
  return {
    /** Streams one reply with the client. */
    stream: (arrivals = false) => ask<StreamRun>({ read: "stream", arrivals }),
    /** Reads one answer raw with fetch. */
    raw: () => ask<RawAnswer>({ read: "raw" }),
    close: async () => {
      const exited = once(child, "exit");
      child.disconnect();
      await exited;
    },
  };
}
