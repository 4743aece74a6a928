import { statSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError, readHome } from "./config.ts";
import { EventLog } from "./event-log.ts";
import { stamp } from "./events.ts";
import { emptyState, reduce } from "./projection.ts";

const usage = `usage: pnpm cli project add <name> <dir>
       pnpm cli project list`;

class UsageError extends Error {}

function main(args: string[]): void {
  const [group, command, ...rest] = args;
  if (group !== "project") throw new UsageError(group === undefined ? "no command given" : `unknown command: ${group}`);
  if (command === "add" && rest.length === 2) return addProject(rest[0] ?? "", rest[1] ?? "");
  if (command === "list" && rest.length === 0) return listProjects();
  throw new UsageError(`wrong arguments for: project ${command ?? ""}`.trim());
}

function addProject(name: string, dirArgument: string): void {
  if (name.trim() === "") throw new UsageError("the project name is empty");
  // pnpm runs scripts in the package directory; INIT_CWD is where the command was typed.
  const dir = resolve(process.env.INIT_CWD ?? process.cwd(), dirArgument);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`not a directory: ${dir}`);
  new EventLog(readHome(process.env)).append(stamp({ type: "project.added", name, dir }));
  console.log(`added project ${name} (${dir})`);
}

function listProjects(): void {
  const state = new EventLog(readHome(process.env)).readAll().reduce(reduce, emptyState);
  if (state.projects.length === 0) console.log("no projects");
  for (const project of state.projects) console.log(`${project.name}\t${project.dir}`);
}

try {
  main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`agent-chat: ${error.message}\n${usage}`);
    process.exit(2);
  }
  if (error instanceof ConfigError) {
    console.error(`agent-chat: ${error.message}`);
    process.exit(2);
  }
  throw error;
}
