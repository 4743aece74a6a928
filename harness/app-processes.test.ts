import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appProcesses, groupedLogs, startProcesses } from "./app-processes.ts";
import type { ReadyCheck, ScenarioAppConfig } from "./config.ts";
import { substitute } from "./environment.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The config error appProcesses throws for `start` (with app.services naming `services`), without its tag. */
function refusal(start: unknown, services: ReadonlyArray<string> = []): string {
  try {
    appProcesses({ start } as ScenarioAppConfig, services);
  } catch (error) {
    return (error as Error).message.replace("[scenario-harness:config] ", "");
  }
  return "accepted";
}

describe("app.start's processes", () => {
  it("are one command, or several by name, the first ready by app.ready unless it names its own, the others by their own or by none", () => {
    expect(appProcesses({ start: "node server.js", ready: { path: "/health" } })).toEqual([
      { name: "", command: "node server.js", ready: { path: "/health" }, readyField: "app.ready" },
    ]);
    const ready = { log: /ready/ };
    expect(
      appProcesses({ start: { web: "next dev -p {port}", api: { command: "node api.js", ready }, worker: "node worker.js" }, ready }),
    ).toEqual([
      { name: "web", command: "next dev -p {port}", ready, readyField: "app.ready" },
      { name: "api", command: "node api.js", ready, readyField: "app.start.api.ready" },
      { name: "worker", command: "node worker.js", ready: undefined, readyField: "app.start.worker.ready" },
    ]);
    expect(appProcesses({ start: { web: { command: "node web.js", ready: { path: "/up" } } }, ready })[0]?.ready).toEqual({ path: "/up" });
  });

  it.each([
    [
      "no start",
      "",
      'app.start is not set: set it to the shell command that starts the app\'s server, e.g. "pnpm start", or to its processes by name, the one the browser opens first, e.g. { web: "pnpm start", api: "node api.js" }.',
    ],
    [
      "no process",
      {},
      'app.start is not set: set it to the shell command that starts the app\'s server, e.g. "pnpm start", or to its processes by name, the one the browser opens first, e.g. { web: "pnpm start", api: "node api.js" }.',
    ],
    [
      "a name with a dot",
      { "web.app": "node web.js" },
      'app.start names a process "web.app": rename it to a letter then letters, digits, _ or -, e.g. "api", as its name goes into {web.app.url}.',
    ],
    [
      "the name replay",
      { web: "node web.js", replay: "node mock.js" },
      `app.start names a process "replay", but {replay.<name>} is the replay agents': rename the process, e.g. "replay-app", so that {<name>.url} names one thing.`,
    ],
    [
      "a command that is a number",
      { web: 3000 },
      'app.start.web is 3000: set it to the shell command that starts the process, e.g. "node api.js", or to { command, ready }.',
    ],
    [
      "a process without its command",
      { web: "node web.js", api: { ready: { path: "/health" } } },
      'app.start.api is {"ready":{"path":"/health"}}: set it to the shell command that starts the process, e.g. "node api.js", or to { command, ready }.',
    ],
    [
      "a ready check that is a path alone",
      { web: "node web.js", api: { command: "node api.js", ready: "/health" } },
      'app.start.api.ready is "/health": set it to { path: "/health" } (a path that answers once the process is up) or { log: "ready" } (a line it prints then), or leave it out to count it ready once the other processes are.',
    ],
    [
      "a ready timeout in seconds",
      { web: "node web.js", api: { command: "node api.js", ready: { path: "/health", timeout: 1.5 } } },
      "app.start.api.ready.timeout is 1.5: set it to a whole number of milliseconds, e.g. 120000, or leave it out for 60000.",
    ],
    [
      "a warm path that is a URL",
      { web: { command: "node web.js", ready: { path: "/", warm: ["http://localhost/x"] } } },
      'app.start.web.ready.warm holds "http://localhost/x", which is not a path; set it to a list of paths the harness asks for once the app is ready, each starting with "/", e.g. ["/api/chat"], or leave it out.',
    ],
  ])("refuses %s, naming the fix", (_case, start, message) => {
    expect(refusal(start)).toBe(message);
  });

  it("refuses a process named as a service is, since both are {<name>.url}", () => {
    expect(refusal({ web: "node web.js", postgres: "node db.js" }, ["postgres"])).toBe(
      'app.start names a process "postgres", but app.services names "postgres" too: rename the process, e.g. "postgres-app", so that {<name>.url} names one thing.',
    );
  });

  it("fill {<name>.url} and {<name>.port} of each process into a value, leaving other names for the services' placeholders", () => {
    const processes = { web: { url: "http://localhost:4100", port: 4100 }, api: { url: "http://127.0.0.1:4200", port: 4200 } };
    const values = { port: 4200, home: "/h", replay: undefined, replayCommand: undefined, replayExecutable: undefined, processes };
    expect(substitute("API_URL={api.url} WEB={web.url} {web.port} own={port} db={postgres.url}", values)).toBe(
      "API_URL=http://127.0.0.1:4200 WEB=http://localhost:4100 4100 own=4200 db={postgres.url}",
    );
  });

  it("keep each one's output apart under its name, and a single command's output as it is", () => {
    expect(groupedLogs([{ name: "", text: "listening\n" }])).toBe("listening\n");
    expect(
      groupedLogs(
        [
          { name: "web", text: "listening\n" },
          { name: "worker", text: "" },
        ],
        (text) => text.toUpperCase(),
      ),
    ).toBe("=== web ===\nLISTENING\n\n=== worker ===\n[scenario-harness: it printed nothing]\n");
  });
});

/** Whether a process is still running: there, and not a zombie waiting to be reaped. */
async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  return stat !== undefined && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

/** A web process on its PORT, answering with the worker's URL it was given, and a worker that prints nothing. */
const web = `require("node:http").createServer((q, s) => s.end(process.env.WORKER_URL)).listen(Number(process.env.PORT), "127.0.0.1");`;
const quietWorker = `require("node:fs").writeFileSync("worker.pid", String(process.pid)); setInterval(() => {}, 1000);`;

/** Starts each node script by its name in a fresh folder, each with WORKER_URL set to {worker.url}, and `ready` the checks of some. */
async function start(scripts: Readonly<Record<string, string>>, ready: Readonly<Record<string, ReadyCheck>> = {}) {
  const dir = await mkdtemp(join(tmpdir(), "harness-processes-"));
  scratch.push(dir);
  await Promise.all(Object.entries(scripts).map(([name, script]) => writeFile(join(dir, `${name}.cjs`), script)));
  const processes = appProcesses({
    start: Object.fromEntries(Object.keys(scripts).map((name) => [name, { command: `node ${name}.cjs`, ready: ready[name] }])),
  });
  const started = startProcesses({
    processes,
    launch: (one, port, addresses) => ({
      command: one.command,
      env: {
        PATH: process.env.PATH ?? "",
        PORT: String(port),
        WORKER_URL: substitute("{worker.url}", {
          port,
          home: dir,
          replay: undefined,
          replayCommand: undefined,
          replayExecutable: undefined,
          processes: addresses,
        }),
      },
    }),
    cwd: dir,
    logDir: dir,
    firstUrl: (port) => `http://127.0.0.1:${port}`,
  });
  return { dir, started };
}

describe("several processes", () => {
  it("count one with no ready check ready once the others are, and stop it with them", async () => {
    // The web process listens once the worker has written its pid: else, on a loaded machine, the web process could be
    // ready (and the worker with it) before the worker's first line ran.
    const webAfterWorker =
      'const { existsSync, watch } = require("node:fs");\n' +
      `const listen = () => ${web.replace(/;$/, "")};\n` +
      // Watched from before the look, so a pid written in between is not missed.
      'const watcher = watch(".", () => { if (existsSync("worker.pid")) { watcher.close(); listen(); } });\n' +
      'if (existsSync("worker.pid")) { watcher.close(); listen(); }\n';
    const { dir, started } = await start({ web: webAfterWorker, worker: quietWorker });
    const { started: up, addresses } = await started;
    expect(up.map((one) => one.name)).toEqual(["web", "worker"]);
    expect(await (await fetch(addresses.web?.url ?? "")).text()).toBe(`http://127.0.0.1:${addresses.worker?.port}`);
    const worker = Number(await readFile(join(dir, "worker.pid"), "utf8"));
    await Promise.all(up.map((one) => one.server.stop()));
    expect(await alive(worker)).toBe(false);
  });

  it("fail boot when one with no ready check exits before the others are ready, naming it", async () => {
    // The web process never listens: the worker's exit is what ends boot, at once, and the web process is stopped with it.
    const { started } = await start({ web: "setInterval(() => {}, 1000);", worker: `console.error("worker: no queue"); process.exit(2);` });
    await expect(started).rejects.toThrow(
      'The app\'s process "worker" exited with code 2 before it was ready, its last line being "worker: no queue". Check app.start.worker (`node worker.cjs`) in the scenario config and its output:\nworker: no queue',
    );
  });

  it("start all again, each on a new port, when one's port was taken before it bound it, as the others were given that port", async () => {
    // The worker's first start takes its own port before it listens on it, as another program could once the port was chosen.
    const worker = `
      const { existsSync, writeFileSync } = require("node:fs");
      const serve = () => require("node:http").createServer((q, s) => s.end("worker")).listen(Number(process.env.PORT), "127.0.0.1");
      if (existsSync("started-once")) serve();
      else {
        writeFileSync("started-once", process.env.PORT);
        require("node:net").createServer().listen(Number(process.env.PORT), "127.0.0.1", serve);
      }`;
    const { dir, started } = await start({ web, worker }, { worker: { path: "/" } });
    const { started: up, addresses } = await started;
    const first = Number(await readFile(join(dir, "started-once"), "utf8"));
    const port = addresses.worker?.port;
    expect(port).not.toBe(first);
    // The web process was started again too: it was given the worker's new address.
    expect(await (await fetch(addresses.web?.url ?? "")).text()).toBe(`http://127.0.0.1:${port}`);
    await Promise.all(up.map((one) => one.server.stop()));
    expect(await readFile(join(dir, "server-worker.log"), "utf8")).toContain(
      `[scenario-harness: port ${first} was in use; starting the app again on port ${port}]\n`,
    );
  });
});
