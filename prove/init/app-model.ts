import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { SdkProvider } from "./provider-sdks.ts";

/** The model the app's source names for a provider: the one id found, and the file it is in. */
export type AppModel =
  | { readonly kind: "found"; readonly model: string; readonly file: string }
  | { readonly kind: "none" }
  | { readonly kind: "several"; readonly models: ReadonlyArray<string> };

/**
 * A provider's model ids as they are written in code: a quoted string and nothing else. Ollama's
 * names (llama3.2, qwen2.5, any pulled model) have no shape to tell them by, so none is looked for.
 */
const modelIds: Readonly<Record<SdkProvider, RegExp | undefined>> = {
  "openai-chat": /^(?:gpt-\d[\w.-]*|o\d(?:-[\w.-]+)?|chatgpt-[\w.-]+)$/,
  "openai-responses": /^(?:gpt-\d[\w.-]*|o\d(?:-[\w.-]+)?|chatgpt-[\w.-]+)$/,
  "anthropic-messages": /^claude-[\w.-]+$/,
  gemini: /^gemini-[\w.-]+$/,
  bedrock: /^(?:(?:us|eu|apac|global)\.)?(?:anthropic|amazon|meta|mistral|cohere|ai21|deepseek)\.[\w.:-]+$/,
  cohere: /^command(?:-[\w.-]+)?$/,
  ollama: undefined,
};

const sourceFile = /\.(?:[cm]?[jt]sx?|py)$/;
/** Folders that hold no app source of its own: dependencies, builds, tests' output. */
const skipped = new Set([
  "node_modules",
  ".git",
  "dist",
  "build",
  ".next",
  ".nuxt",
  ".svelte-kit",
  "out",
  "coverage",
  "__pycache__",
  ".venv",
  "venv",
]);
const quoted = /["'`]([\w.:-]{2,80})["'`]/g;
/** Enough for an app's own source; a bigger tree is read up to here. */
const maxFiles = 2000;
const maxBytes = 512 * 1024;

/** The app's source files under `dir`, depth first, without the folders above. */
async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (files.length >= maxFiles) return;
      const path = join(folder, entry.name);
      if (entry.isDirectory() && !skipped.has(entry.name) && !entry.name.startsWith(".")) await walk(path);
      else if (entry.isFile() && sourceFile.test(entry.name) && !/\.(?:test|spec|e2e)\.[cm]?[jt]sx?$/.test(entry.name)) files.push(path);
    }
  };
  await walk(dir);
  return files;
}

/** The model id of `provider` that the app's source under `dir` names, when it names exactly one. */
export async function findAppModel(dir: string, provider: SdkProvider): Promise<AppModel> {
  const pattern = modelIds[provider];
  if (pattern === undefined) return { kind: "none" };
  const found = new Map<string, string>();
  for (const file of await sourceFiles(dir)) {
    if ((await stat(file)).size > maxBytes) continue;
    for (const match of (await readFile(file, "utf8")).matchAll(quoted)) {
      const id = match[1] ?? "";
      if (pattern.test(id) && !found.has(id)) found.set(id, relative(dir, file).split(sep).join("/"));
    }
  }
  const [first, ...rest] = found.entries();
  if (first === undefined) return { kind: "none" };
  return rest.length === 0 ? { kind: "found", model: first[0], file: first[1] } : { kind: "several", models: [...found.keys()] };
}
