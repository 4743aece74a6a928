import type { IncomingMessage, ServerResponse } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

/** The browser's modules and styles served from the app's dependencies, by the paths the page links and maps them to. */
const vendorModules = new Map(
  Object.entries({
    "/vendor/marked.js": "marked",
    "/vendor/marked-highlight.js": "marked-highlight",
    "/vendor/highlight.js": "@highlightjs/cdn-assets/es/highlight.min.js",
    "/vendor/highlight.css": "@highlightjs/cdn-assets/styles/github.min.css",
  }).map(([path, specifier]) => [path, fileURLToPath(import.meta.resolve(specifier))]),
);

/** Answers `/health` and serves the browser UI from `publicDir`, and its modules from the app's dependencies. */
export function createRequestHandler(publicDir: string): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const { pathname } = new URL(req.url ?? "/", "http://localhost");
    if (req.method !== "GET" && req.method !== "HEAD") {
      respond(res, 405, "text/plain; charset=utf-8", "Method not allowed\n");
    } else if (pathname === "/health") {
      respond(res, 200, "application/json", JSON.stringify({ ok: true }));
    } else {
      void serveStatic(publicDir, pathname === "/" ? "/index.html" : pathname, res);
    }
  };
}

async function serveStatic(publicDir: string, pathname: string, res: ServerResponse): Promise<void> {
  try {
    const file = vendorModules.get(pathname) ?? normalize(join(publicDir, decodeURIComponent(pathname)));
    const type = contentTypes[extname(file)];
    if (!(vendorModules.has(pathname) || file.startsWith(publicDir + sep)) || type === undefined) throw new Error(`not a UI file: ${pathname}`);
    respond(res, 200, type, await readFile(file));
  } catch {
    respond(res, 404, "text/plain; charset=utf-8", "Not found\n");
  }
}

function respond(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  res.end(body);
}
