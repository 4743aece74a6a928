import { get } from "node:http";
import { connect, type Socket } from "node:net";
import { setTimeout as pause } from "node:timers/promises";

/**
 * How often a closed port is tried again. It stays this short however long the app takes to
 * start: a refused connect on localhost costs a fraction of a millisecond, so waiting costs
 * about a tenth of one core.
 */
const connectIntervalMs = 5;
/** The longest wait between asks of a ready path that does not answer yet although its port accepts (a server warming up). */
const maxAskIntervalMs = 100;

/** How long a connect may hang (a full accept queue) before it counts as refused. */
const connectTimeoutMs = 1_000;

/** A TCP connection to `url`'s host and port, or undefined while nothing accepts one. */
function connection(url: URL): Promise<Socket | undefined> {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(url.port) || 80;
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: connectTimeoutMs });
    const refused = () => {
      socket.destroy();
      resolve(undefined);
    };
    socket.once("error", refused).once("timeout", refused);
    socket.once("connect", () => {
      socket.off("error", refused).off("timeout", refused).setTimeout(0);
      resolve(socket);
    });
  });
}

/**
 * Whether GET `url`, sent over `socket` (the connection that found the port open, so the app
 * serves one connection, not two), answers with a status below 400 and its whole body: a dev
 * server that compiles a page on its first request (Next.js, Astro) may send the headers at once
 * and the page once compiled, and that first render is part of booting. It asks as a browser
 * opening the page does (`accept: text/html`).
 */
function answers(url: URL, socket: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    const request = get(url, { createConnection: () => socket, headers: { connection: "close", accept: "text/html,*/*" } }, (response) => {
      const ok = (response.statusCode ?? 500) < 400;
      response.once("end", () => resolve(ok));
      // A body cut short (the app closed the connection, or died) is no answer.
      response.once("close", () => resolve(false));
      response.resume();
    });
    request.once("error", () => resolve(false));
  });
}

/**
 * Resolves once GET `url` (an http: URL) answers with a status below 400 and its whole body;
 * rejects once `signal` has aborted. The port is tried every few ms until it accepts a connection, then the path is
 * asked over it, and asked again after growing intervals while it does not answer yet. One
 * attempt is in flight at a time; none has an abort signal (Node 20's sockets keep a listener on
 * it after they close), so the app's exit or its answer ends the last one.
 */
export async function untilPathAnswers(url: URL, signal: AbortSignal): Promise<void> {
  let askInterval = connectIntervalMs;
  for (;;) {
    signal.throwIfAborted();
    const socket = await connection(url);
    if (socket === undefined) {
      await pause(connectIntervalMs);
    } else if (await answers(url, socket)) {
      return;
    } else {
      await pause(askInterval);
      askInterval = Math.min(askInterval * 2, maxAskIntervalMs);
    }
  }
}
