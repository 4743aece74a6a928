import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";

/**
 * A plain git repository holding a page served by plain Node under /app/ (no dependencies): its
 * button runs a loop in the page's main thread, then says "done". Each commit is tagged:
 *
 * - `slow`: the loop runs 40 million times
 * - `fast`: 1 million times, the same page otherwise
 * - `broken`: `fast`, but the page says "dnoe"
 */
export interface FasterRepo {
  readonly dir: string;
  readonly git: (...args: string[]) => Promise<string>;
}

const server = (iterations: number, done = "done") => `const http = require("node:http");

const page = \`<!doctype html>
<html lang="en">
<title>Work</title>
<button>Work</button>
<p role="status"></p>
<script>
  document.querySelector("button").addEventListener("click", () => {
    let sum = 0;
    for (let index = 0; index < ${iterations}; index++) sum += Math.sqrt(index);
    document.querySelector("[role=status]").textContent = sum > 0 ? ${JSON.stringify(done)} : "nothing";
  });
</script>
</html>
\`;

http
  .createServer((request, response) => {
    if (request.url !== "/app/") return response.writeHead(404).end();
    response.writeHead(200, { "content-type": "text/html" }).end(page);
  })
  .listen(Number(process.env.PORT), "127.0.0.1", () => console.log("work app listening on " + process.env.PORT));
`;

export async function makeFasterRepo(root: string): Promise<FasterRepo> {
  const dir = join(root, "work-app");
  await mkdir(dir, { recursive: true });
  const git = async (...args: string[]) => (await execa("git", args, { cwd: dir })).stdout;
  const author = ["-c", "user.name=Work Dev", "-c", "user.email=dev@example.com"];
  const commit = async (tag: string, message: string) => {
    await git("add", "-A");
    await git(...author, "commit", "-qm", message);
    await git("tag", tag);
  };
  await git("init", "-q", "-b", "main");
  await writeFile(join(dir, "server.js"), server(40_000_000));
  // The first commit names the folder it was made in, so that its SHA, and its default report folder, are its own.
  await writeFile(join(dir, "README.md"), `# Work\n\nMade in ${root}.\n`);
  await commit("slow", "Add the work page");
  await writeFile(join(dir, "server.js"), server(1_000_000));
  await commit("fast", "Do less work");
  await writeFile(join(dir, "server.js"), server(1_000_000, "dnoe"));
  await commit("broken", "Say it differently");
  return { dir, git };
}
