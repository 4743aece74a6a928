import { get } from "node:http";
import { connect, type Socket } from "node:net";
import { setTimeout as pause } from "node:timers/promises";

/** How often a closed port is tried again; a refused connect on localhost is cheap, so this stays short. */
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
 * Whether GET `url` over `socket` (the connection that found the port open) answers below 400 with
 * its whole body: a dev server's first compile (Next.js, Astro) is part of booting. Asks as a browser does.
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
 * Resolves once GET `url` (http:) answers below 400 with its whole body; rejects once `signal` has
 * aborted. Attempts do not get the signal (Node 20's sockets keep a listener on it after closing).
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

/** Whether GET `url` over `socket` gets a response, of any status; its body is not waited for (it may stream for ever). */
function responds(url: URL, socket: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    const request = get(url, { createConnection: () => socket, headers: { connection: "close", accept: "*/*" } }, (response) => {
      resolve(true);
      response.on("error", () => {});
      response.destroy();
    });
    request.on("error", () => resolve(false));
  });
}

/**
 * Resolves once GET `url` (http:) is answered with any status: a dev server answers a route it compiles
 * on its first request once compiled. Asks again while the connection fails; rejects once `signal` has aborted.
 */
export async function untilPathResponds(url: URL, signal: AbortSignal): Promise<void> {
  let askInterval = connectIntervalMs;
  for (;;) {
    signal.throwIfAborted();
    const socket = await connection(url);
    if (socket !== undefined && (await responds(url, socket))) return;
    await pause(askInterval);
    askInterval = Math.min(askInterval * 2, maxAskIntervalMs);
  }
}
