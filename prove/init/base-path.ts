import type { BaseSetting } from "./frameworks.ts";

/** The path an app is served under, as its framework's config file says. */
export type BasePath =
  /** `path` with a leading slash, e.g. "/docs" or "/sub/". */
  | { readonly kind: "path"; readonly path: string; readonly file: string; readonly key: string }
  /** The key is set to something other than a string: `expression` is its text, e.g. "process.env.BASE_PATH". */
  | { readonly kind: "unreadable"; readonly file: string; readonly key: string; readonly expression: string };

type Setting =
  | { readonly kind: "none" }
  | { readonly kind: "literal"; readonly value: string }
  | { readonly kind: "other"; readonly expression: string };

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The value `key` is set to in a config file's text, inside `within: { … }` when given. */
function settingIn(text: string, key: string, within: string | undefined): Setting {
  let scope = text;
  if (within !== undefined) {
    const block = new RegExp(`(?:^|[\\s{,(])["']?${escape(within)}["']?\\s*:\\s*\\{`).exec(text);
    if (block === null) return { kind: "none" };
    scope = text.slice(block.index + block[0].length);
  }
  const property = new RegExp(`(?:^|[\\s{,(])["']?${escape(key)}["']?\\s*:\\s*`).exec(scope);
  if (property === null) return { kind: "none" };
  const rest = scope.slice(property.index + property[0].length);
  const literal = /^(["'`])([^"'`$\n]*)\1/.exec(rest);
  if (literal !== null) return { kind: "literal", value: literal[2] ?? "" };
  return { kind: "other", expression: (/^[^,\n}]*/.exec(rest)?.[0] ?? "").trim() };
}

/** A base as a served path; undefined for none, "/", a relative base or a URL. */
function servedPath(value: string, trailingSlash: BaseSetting["trailingSlash"]): string | undefined {
  const base = value.trim();
  if (base === "" || base.startsWith(".") || base.includes("://")) return undefined;
  const path = (trailingSlash === "add" ? `/${base}/` : `/${base}`).replace(/\/{2,}/g, "/");
  return path === "/" ? undefined : path;
}

/** `base: "/sub/"` in a Vite config's text, as a served path; undefined for none, "/", a relative base or a URL. */
export function basePathOf(viteConfig: string): string | undefined {
  const setting = settingIn(viteConfig, "base", undefined);
  return setting.kind === "literal" ? servedPath(setting.value, "add") : undefined;
}

/** The served path from the first of `setting.files` that sets it; undefined when none does. */
export function readBasePath(setting: BaseSetting, read: (file: string) => string | undefined): BasePath | undefined {
  for (const file of setting.files) {
    const text = read(file);
    if (text === undefined) continue;
    const found = settingIn(text, setting.key, setting.within);
    const key = setting.within === undefined ? setting.key : `${setting.within}.${setting.key}`;
    if (found.kind === "other") return { kind: "unreadable", file, key, expression: found.expression };
    const path = found.kind === "literal" ? servedPath(found.value, setting.trailingSlash) : undefined;
    if (path !== undefined) return { kind: "path", path, file, key };
  }
  return undefined;
}
