import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";

/** A tool the model may call; each provider sends it in its own shape. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the tool's input. */
  parameters: { type: "object"; properties: Record<string, unknown>; required?: string[]; additionalProperties: boolean };
}

export const toolDefinitions: ToolDefinition[] = [
  {
    name: "list_files",
    description: "List the files and directories under a directory of the project, recursively.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "Directory relative to the project root; the root when omitted." },
      },
      additionalProperties: false,
    },
  },
  {
    name: "read_file",
    description: "Read a text file of the project.",
    parameters: {
      type: "object",
      properties: { path: { type: "string", description: "File path relative to the project root." } },
      required: ["path"],
      additionalProperties: false,
    },
  },
];

const maxEntries = 200;
const maxFileBytes = 64 * 1024;
const skippedDirs = new Set([".git", "node_modules"]);

/** Runs one tool call against the project directory; a failure becomes the text the model reads. */
export function runTool(name: string, argumentsJson: string, projectDir: string | null): string {
  if (projectDir === null) return "error: no project: this thread is not attached to a project, so it has no files";
  try {
    const args = parseArguments(argumentsJson);
    switch (name) {
      case "list_files":
        return listFiles(projectDir, optionalPath(args) ?? ".");
      case "read_file":
        return readTextFile(projectDir, optionalPath(args) ?? missingPath());
      default:
        return `error: unknown tool ${name}`;
    }
  } catch (error) {
    return `error: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function listFiles(projectDir: string, path: string): string {
  const root = realpathSync(projectDir);
  const dir = resolveInside(root, path);
  if (!statSync(dir).isDirectory()) throw new Error(`${path} is a file; use read_file to read it`);
  const entries: string[] = [];
  const truncated = walk(root, dir, entries);
  if (entries.length === 0) return "(empty directory)";
  return truncated ? `${entries.join("\n")}\n(truncated after ${maxEntries} entries)` : entries.join("\n");
}

// Depth first, sorted, so the same tree always lists the same way; true when it stopped at the cap.
function walk(root: string, dir: string, entries: string[]): boolean {
  const children = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const child of children) {
    if (entries.length >= maxEntries) return true;
    const full = join(dir, child.name);
    const shown = relative(root, full).split(sep).join("/");
    if (child.isDirectory()) {
      if (skippedDirs.has(child.name)) continue;
      entries.push(`${shown}/`);
      if (walk(root, full, entries)) return true;
    } else {
      entries.push(shown);
    }
  }
  return false;
}

function readTextFile(projectDir: string, path: string): string {
  const root = realpathSync(projectDir);
  const file = resolveInside(root, path);
  if (statSync(file).isDirectory()) throw new Error(`${path} is a directory; use list_files to list it`);
  const bytes = readFileSync(file);
  if (bytes.length <= maxFileBytes) return bytes.toString("utf8");
  return `${bytes.subarray(0, maxFileBytes).toString("utf8")}\n(truncated after ${maxFileBytes} bytes)`;
}

// Refuses a path that leaves the project, also through a symlink.
function resolveInside(root: string, path: string): string {
  const target = resolve(root, path);
  if (!isInside(root, target)) throw new Error(`${path} is outside the project`);
  if (!existsSync(target)) throw new Error(`${path} does not exist`);
  const real = realpathSync(target);
  if (!isInside(root, real)) throw new Error(`${path} is outside the project`);
  return real;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function parseArguments(json: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json === "" ? "{}" : json);
  } catch {
    throw new Error(`the arguments are not valid JSON: ${json}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`the arguments must be a JSON object: ${json}`);
  }
  return value as Record<string, unknown>;
}

function optionalPath(args: Record<string, unknown>): string | undefined {
  const { path } = args;
  if (path === undefined) return undefined;
  if (typeof path !== "string") throw new Error("path must be a string");
  return path;
}

function missingPath(): never {
  throw new Error("read_file needs a path");
}
