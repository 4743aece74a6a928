import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAppServer } from "./app-server.ts";
import { appHost, interactiveExpression, readyTimeoutMs, warmPaths } from "./app-settings.ts";
import { BoundedLog } from "./bounded-log.ts";
import type { ReadyCheck } from "./config.ts";
import { HarnessError } from "./errors.ts";
import { logExcerpt } from "./log-excerpt.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

// An app that prints 100 MB before it listens, then a last line.
const flood = `
const http = require("node:http");
const line = "flood ".repeat(1000) + "\\n";
let left = Number(process.env.FLOOD_MB) * 1024 * 1024;
process.stdout.write("first line of the app\\n");
const write = () => {
  while (left > 0) {
    left -= line.length;
    if (!process.stdout.write(line)) return process.stdout.once("drain", write);
  }
  http.createServer((request, response) => response.end("ok")).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening at last"));
  setInterval(() => {}, 1000);
};
write();
`;

/**
 * Starts the node script `script` as an app in a fresh folder, with PORT and `env` set and
 * `ready` as its check: its folder, its log file, and the start (which rejects when it never
 * becomes ready).
 */
async function launch(script: string, ready: ReadyCheck, env: Readonly<Record<string, string>> = {}) {
  const dir = await mkdtemp(join(tmpdir(), "harness-app-server-"));
  scratch.push(dir);
  await writeFile(join(dir, "app.cjs"), script);
  const logFile = join(dir, "server.log");
  const started = startAppServer({
    launch: (port) => ({ command: "node app.cjs", env: { PATH: process.env.PATH ?? "", PORT: String(port), ...env } }),
    cwd: dir,
    ready,
    logFile,
  });
  return { dir, logFile, started };
}

/** Starts the flooding app with `ready`; the running app and its log file. */
async function startFlood(megabytes: number, ready: ReadyCheck) {
  const { started, logFile } = await launch(flood, ready, { FLOOD_MB: String(megabytes) });
  return { server: await started, logFile };
}

describe("the app's output", () => {
  it("is looked through for a ready line that comes after 20 MB of it", async () => {
    const { server } = await startFlood(20, { log: /listening at last/, timeout: 120_000 });
    await server.stop();
    expect(server.logs().trimEnd().endsWith("listening at last")).toBe(true);
  });

  it("is kept to its first and latest half MiB when the app prints 100 MB, in memory and in its log, saying how much was left out", async () => {
    const { server, logFile } = await startFlood(100, { path: "/", timeout: 120_000 });
    await server.stop();

    const logs = server.logs();
    expect(logs.length).toBeLessThan(1024 * 1024 + 200);
    expect(logs.startsWith("first line of the app\nflood flood")).toBe(true);
    expect(logs.trimEnd().endsWith("listening at last")).toBe(true);
    expect(logs).toMatch(/\n\[scenario-harness: \d{9} characters of the app's output left out here\]\n/);
    expect(await readFile(logFile, "utf8")).toBe(logs);
    expect((await stat(logFile)).size).toBeLessThan(1024 * 1024 + 200);
  });
});

/** Whether a process is still running: there, and not a zombie waiting for its parent (or this machine's init) to reap it. */
async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  return stat !== undefined && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

/** Starts an app from `script` that listens on PORT; the running app and its folder. */
async function startScript(script: string) {
  const { started, dir } = await launch(script, { path: "/" });
  return { server: await started, dir };
}

const listen = `require("node:http").createServer((request, response) => response.end("ok")).listen(Number(process.env.PORT), "127.0.0.1");`;

describe("an app that does not become ready", () => {
  it.each([
    [
      "never listens",
      `console.log("starting"); setInterval(() => {}, 1000);`,
      ["The app did not become ready within 0.5s (waiting for GET /health answering at http://127.0.0.1:", "\nstarting"],
    ],
    [
      "listens on another port than PORT",
      `console.log("starting"); require("node:http").createServer(() => {}).listen(0, "127.0.0.1");`,
      ["The app did not become ready within 0.5s (waiting for GET /health answering at http://127.0.0.1:", "\nstarting"],
    ],
    [
      "exits at once",
      `console.log("starting"); console.error("FATAL: no config"); process.exit(3);`,
      ['The app exited with code 3 before it was ready, its last line being "FATAL: no config". Check app.start', "\nstarting"],
    ],
    [
      "dies of an uncaught error",
      `console.log("starting"); require("node:fs").readFileSync("vendor/page/page.html");`,
      [
        `The app exited with code 1 before it was ready, having thrown "Error: ENOENT: no such file or directory, open 'vendor/page/page.html'". Check app.start`,
        `\nNode.js ${process.version}`,
      ],
    ],
    [
      "is ready, but a path of app.ready.warm never answers",
      `console.log("starting"); require("node:http").createServer((request, response) => { if (request.url === "/health") response.end("ok"); }).listen(Number(process.env.PORT), "127.0.0.1");`,
      [
        "The app was ready, but GET /api/chat (app.ready.warm) had not answered within 0.5s of its start, at http://127.0.0.1:",
        "Check app.start (`node app.cjs`) and app.ready in the scenario config, or raise app.ready.timeout.\nIts output:\nstarting",
      ],
    ],
    [
      "says why early, then prints many ordinary lines",
      `console.log("starting"); console.log('⚠ Blocked cross-origin request to dev resource /_dev/hmr from "127.0.0.1"'); for (let i = 0; i < 100; i++) console.log("GET /page-" + String.fromCharCode(97 + Math.floor(i / 10), 97 + (i % 10))); process.exit(1);`,
      [
        '\n⚠ Blocked cross-origin request to dev resource /_dev/hmr from "127.0.0.1"\n[scenario-harness: above, the warnings and errors among 86 earlier line(s)',
        "\nGET /page-jj",
      ],
    ],
  ])(
    "%s: a boot error naming what it waited for or how it ended, with its output's decisive and last lines, and nothing left running",
    async (_name, script, says) => {
      const { dir, started } = await launch(`require("node:fs").writeFileSync("pid", String(process.pid));\n${script}`, {
        path: "/health",
        timeout: 500,
        warm: ["/api/chat"],
      });
      const error = await started.then(
        () => undefined,
        (rejected: unknown) => rejected,
      );
      expect(error).toBeInstanceOf(HarnessError);
      expect(error).toMatchObject({ kind: "boot" });
      const message = error instanceof Error ? error.message : "";
      for (const part of says) expect(message).toContain(part);
      expect(await alive(Number(await readFile(join(dir, "pid"), "utf8")))).toBe(false);
    },
  );
});

describe("an app whose port is taken", () => {
  it("is started again once on another port when it fails with EADDRINUSE, and its log says so", async () => {
    // Its first start takes its own port before it listens on it, as another program could in the moment after the port was chosen.
    const { started, logFile } = await launch(
      `
      const { existsSync, writeFileSync } = require("node:fs");
      const serve = () => require("node:http").createServer((request, response) => response.end("the app")).listen(Number(process.env.PORT), "127.0.0.1");
      if (existsSync("started-once")) serve();
      else {
        writeFileSync("started-once", process.env.PORT);
        require("node:net").createServer().listen(Number(process.env.PORT), "127.0.0.1", serve);
      }
      `,
      { path: "/" },
    );
    const server = await started;
    const first = Number(await readFile(join(dirname(logFile), "started-once"), "utf8"));
    expect(server.port).not.toBe(first);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(await (await fetch(server.url)).text()).toBe("the app");
    await server.stop();
    const log = await readFile(logFile, "utf8");
    expect(log).toContain(`EADDRINUSE: address already in use 127.0.0.1:${first}`);
    expect(log).toContain(`[scenario-harness: port ${first} was in use; starting the app again on port ${server.port}]\n`);
  });
});

describe("stopping the app", () => {
  it("kills an app that ignores SIGTERM once the grace period is over", async () => {
    const { server, dir } = await startScript(`
      require("node:fs").writeFileSync("pid", String(process.pid));
      process.on("SIGTERM", () => console.log("ignoring SIGTERM"));
      ${listen}
    `);
    const pid = Number(await readFile(join(dir, "pid"), "utf8"));
    expect(await alive(pid)).toBe(true);
    await server.stop();
    expect(await alive(pid)).toBe(false);
    expect(server.logs()).toContain("ignoring SIGTERM");
  });

  it("sends the app SIGTERM once, so an app that shuts down on its first SIGTERM (process.once) finishes its shutdown", async () => {
    const { server } = await startScript(`
      process.once("SIGTERM", () => setTimeout(() => { console.log("shut down cleanly"); process.exit(0); }, 300));
      ${listen}
    `);
    await server.stop();
    expect(server.logs()).toContain("shut down cleanly");
  });

  it("stops a daemon the app started in a process group of its own, which outlives the app", async () => {
    // The daemon tells the app its pid over IPC and lets go; the app writes it down, then listens.
    const { server, dir } = await startScript(`
      const { spawn } = require("node:child_process");
      const daemon = spawn(process.execPath, ["-e", "process.send(process.pid, () => process.disconnect()); setInterval(() => {}, 1000);"], { detached: true, stdio: ["ignore", "ignore", "ignore", "ipc"] });
      daemon.once("message", (pid) => {
        require("node:fs").writeFileSync("daemon-pid", String(pid));
        daemon.unref();
        ${listen}
      });
    `);
    const pid = Number(await readFile(join(dir, "daemon-pid"), "utf8"));
    expect(await alive(pid)).toBe(true);
    await server.stop();
    expect(await alive(pid)).toBe(false);
  });
});

describe("a bounded log", () => {
  it("keeps everything while it fits, then the first and the latest half with the count left out", () => {
    const log = new BoundedLog(5);
    log.push("abc");
    log.push("defgh");
    expect([log.text(), log.truncated]).toEqual(["abcdefgh", false]);
    log.push("ijklmnop");
    expect([log.text(), log.truncated]).toEqual(["abcde\n[scenario-harness: 6 characters of the app's output left out here]\nlmnop", true]);
  });

  it("cuts at line ends, so no line is shown in part", () => {
    const log = new BoundedLog(8);
    log.push("one\ntwo\nthree\nfour\nfive\nsix\n");
    expect(log.text()).toBe("one\ntwo\n[scenario-harness: 16 characters of the app's output left out here]\nsix\n");
    log.push("seven\n");
    expect(log.text()).toBe("one\ntwo\n[scenario-harness: 20 characters of the app's output left out here]\nseven\n");
  });
});

describe("a log excerpt", () => {
  // A hundred different requests: their paths differ in letters, not only in numbers (lines alike but for those are one).
  const letters = (i: number) => `${"abcdefghij"[Math.floor(i / 10)] ?? ""}${"abcdefghij"[i % 10] ?? ""}`;
  const ordinary = Array.from({ length: 100 }, (_, i) => `GET /page-${letters(i)} 200`);

  it.each([
    ["a short log, whole", "ready\nGET / 200\n", "ready\nGET / 200"],
    [
      "a warning among many ordinary lines, kept whole before the last lines",
      ["ready", '⚠ Blocked cross-origin request to Next.js dev resource /_next/webpack-hmr from "127.0.0.1"', ...ordinary].join("\n"),
      [
        '⚠ Blocked cross-origin request to Next.js dev resource /_next/webpack-hmr from "127.0.0.1"',
        "[scenario-harness: above, the warnings and errors among 86 earlier line(s) of the app's output; the rest left out]",
        ...ordinary.slice(-16),
      ].join("\n"),
    ],
    [
      "a repeated error once, with its count, and colours removed",
      ["\u001b[31m⨯ Error: boom\u001b[39m", "⨯ Error: boom", ...ordinary].join("\n"),
      [
        "⨯ Error: boom [×2]",
        "[scenario-harness: above, the warnings and errors among 86 earlier line(s) of the app's output; the rest left out]",
        ...ordinary.slice(-16),
      ].join("\n"),
    ],
    [
      "a line that repeats a hundred times, differing only in its numbers (a timestamp, a duration), once where it came last with its count",
      [
        "ready on 3000",
        ...Array.from({ length: 100 }, (_, i) => [
          `GET /page-${letters(i)} 200`,
          `2026-12-04T20:${String(i % 60).padStart(2, "0")}:07.${i}Z ⨯ Failed to download \`Inter\` from Google Fonts (${900 + i} ms)`,
        ]).flat(),
        "GET / 200",
      ].join("\n"),
      [
        "[scenario-harness: 87 earlier line(s) of the app's output left out]",
        ...ordinary.slice(-14),
        "2026-12-04T20:39:07.99Z ⨯ Failed to download `Inter` from Google Fonts (999 ms) [×100]",
        "GET / 200",
      ].join("\n"),
    ],
    [
      "a line of a base64 image, by its start and its length",
      `ready\ndata:image/png;base64,${"A".repeat(166_000)}\nexited`,
      `ready\ndata:image/png;base64,${"A".repeat(178)}… [165822 more characters]\nexited`,
    ],
  ])("%s", (_name, output, excerpt) => {
    expect(logExcerpt(output)).toBe(excerpt);
  });

  it("stays within about 3 000 characters however long and many the lines", () => {
    const lines = Array.from({ length: 2_000 }, (_, i) => `${i % 3 === 0 ? "Error" : "info"} ${"x".repeat(400 + (i % 300))}`);
    const excerpt = logExcerpt(lines.join("\n"));
    expect(excerpt.length).toBeLessThan(3_200);
    expect(
      excerpt
        .split("\n")
        .map((line) => line.replace(/ \[×\d+\]$/, ""))
        .every((line) => lines.includes(line) || line.startsWith("[scenario-harness:") || line.endsWith(" more characters]")),
    ).toBe(true);
  });
});

describe("the app's settings", () => {
  it.each([
    [{ start: "x" }, "127.0.0.1"],
    [{ start: "x", host: "localhost" }, "localhost"],
    [{ start: "x", host: "[::1]" }, "[::1]"],
  ])("app.host %j opens the app at %s", (app, host) => {
    expect(appHost(app)).toBe(host);
  });

  it.each([
    [
      () => appHost({ start: "x", host: "http://localhost:3000" }),
      'app.host is "http://localhost:3000": set it to the host name the browser opens the app at, without scheme, port or path',
    ],
    [
      () => readyTimeoutMs({ path: "/", timeout: -1 }),
      "app.ready.timeout is -1: set it to a whole number of milliseconds, e.g. 120000, or leave it out for 60000.",
    ],
    [
      () => warmPaths({ path: "/", warm: "/api/chat" as unknown as ReadonlyArray<string> }),
      'app.ready.warm is "/api/chat"; set it to a list of paths the harness asks for once the app is ready, each starting with "/", e.g. ["/api/chat"], or leave it out.',
    ],
    [
      () => warmPaths({ path: "/", warm: ["/", "api/chat"] }),
      'app.ready.warm holds "api/chat", which is not a path; set it to a list of paths',
    ],
    [
      () => interactiveExpression({ start: "x", interactive: true as unknown as string }),
      'app.interactive is true: set it to a JavaScript expression, as a string, that is truthy in the page once it is interactive, e.g. "window.appReady === true", or leave it out',
    ],
  ])("a bad setting is a config error naming the key and what to set", (read, says) => {
    expect(read).toThrow(HarnessError);
    expect(read).toThrow(says);
  });

  it("gives boot 60 s when app.ready.timeout is not set, as Playwright's webServer does", () => {
    expect(readyTimeoutMs(undefined)).toBe(60_000);
  });
});
