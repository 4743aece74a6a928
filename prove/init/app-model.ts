import { relative, sep } from "node:path";
import type { SdkProvider } from "./provider-sdks.ts";
import { readSource, sourceFiles } from "./source-files.ts";

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

const quoted = /["'`]([\w.:-]{2,80})["'`]/g;

/** The model id of `provider` that the app's source under `dir` names, when it names exactly one. */
export async function findAppModel(dir: string, provider: SdkProvider): Promise<AppModel> {
  const pattern = modelIds[provider];
  if (pattern === undefined) return { kind: "none" };
  const found = new Map<string, string>();
  for (const file of await sourceFiles(dir)) {
    const text = await readSource(file);
    if (text === undefined) continue;
    for (const match of text.matchAll(quoted)) {
      const id = match[1] ?? "";
      if (pattern.test(id) && !found.has(id)) found.set(id, relative(dir, file).split(sep).join("/"));
    }
  }
  const [first, ...rest] = found.entries();
  if (first === undefined) return { kind: "none" };
  return rest.length === 0 ? { kind: "found", model: first[0], file: first[1] } : { kind: "several", models: [...found.keys()] };
}
