import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { inflateSync } from "node:zlib";
import { execa } from "execa";
import { unzipSync } from "fflate";
import { vi } from "vitest";

/**
 * Secrets planted where a developer keeps them: provider keys and tokens in the environment, an
 * npm token in ~/.npmrc and a git credential helper in ~/.gitconfig. Each is distinct and says
 * PLANTED, so a piece of one is found too.
 */
export const plantedEnv = {
  OPENAI_API_KEY: "sk-proj-PLANTEDopenai0Kq3vX8mZ2rT7yL1nB5cW9dF4gH6jP0sA",
  ANTHROPIC_API_KEY: "sk-ant-api03-PLANTEDanthropic0Kq3vX8mZ2rT7yL1nB5cW9dF4-gH6jP0sA",
  GITHUB_TOKEN: "ghp_PLANTEDgithub0Kq3vX8mZ2rT7yL1nB5cW9dF",
  NPM_TOKEN: "npm_PLANTEDnpmenv0Kq3vX8mZ2rT7yL1nB5cW9dF4",
  AWS_SECRET_ACCESS_KEY: "PLANTEDaws/K7MDENG+bPxRfiCY0Kq3vX8mZ2rT7",
};
export const npmrcToken = "npm_PLANTEDnpmrc0Kq3vX8mZ2rT7yL1nB5cW9dF4gH";
export const gitPassword = "PLANTED-git-credential-0Kq3vX8mZ2rT7yL1";
export const planted = [...Object.values(plantedEnv), npmrcToken, gitPassword];

/**
 * Makes `home` the developer's home folder, ~/.npmrc and ~/.gitconfig holding secrets, and, until
 * vi.unstubAllEnvs(), this process's environment the developer's: HOME there, the planted secrets,
 * and no other secret-looking variable. The prover's helpers start it with this process's environment.
 */
export async function plantDeveloper(home: string): Promise<void> {
  // The developer's caches stay where they are, named in the files that hold the secrets, as a developer's own do.
  const npmCache = (await execa("npm", ["config", "get", "cache"])).stdout;
  const pnpmStore = dirname((await execa("pnpm", ["store", "path"])).stdout);
  const files = {
    ".npmrc": `cache=${npmCache}\n//registry.npmjs.org/:_authToken=${npmrcToken}\n`,
    ".gitconfig": `[user]\n\tname = Planted Dev\n\temail = dev@example.com\n[credential]\n\thelper = "!f() { echo username=dev; echo password=${gitPassword}; }; f"\n`,
    ".config/pnpm/config.yaml": `storeDir: ${JSON.stringify(pnpmStore)}\n`,
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(home, file)), { recursive: true });
    await writeFile(join(home, file), text);
  }
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/KEY|TOKEN|SECRET|PASSWORD|AUTH|CREDENTIAL|^GIT_CONFIG|^XDG_/i.test(name)) env[name] = value;
  }
  Object.assign(env, plantedEnv, { HOME: home });
  for (const name of Object.keys(process.env)) if (!(name in env)) vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
}

/** Every form a value takes in a file: as it is, inside JSON text, inside a URL. */
const forms = (value: string) => [...new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)])];

/** The text chunks of a PNG (tEXt, zTXt, iTXt, eXIf), decompressed: where an image carries metadata. */
export function pngMetadata(png: Buffer): string {
  const texts: string[] = [];
  for (let at = 8; at + 8 <= png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    const afterKeyword = data.indexOf(0) + 1;
    if (type === "tEXt" || type === "eXIf") texts.push(data.toString("latin1"));
    if (type === "zTXt")
      texts.push(data.toString("latin1", 0, afterKeyword), inflateSync(data.subarray(afterKeyword + 1)).toString("latin1"));
    if (type === "iTXt") {
      const compressed = data[afterKeyword] === 1;
      const languageEnd = data.indexOf(0, afterKeyword + 2);
      const textStart = data.indexOf(0, languageEnd + 1) + 1;
      const text = data.subarray(textStart);
      texts.push(data.toString("latin1", 0, textStart), (compressed ? inflateSync(text) : text).toString("latin1"));
    }
    at += 12 + length;
  }
  return texts.join("\n");
}

export interface FileText {
  readonly file: string;
  readonly text: string;
}

/** Every text under `dir`: each file's bytes, each file inside a zip decompressed, and each PNG's metadata. */
export async function textsUnder(dir: string): Promise<ReadonlyArray<FileText>> {
  const texts: FileText[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const bytes = await readFile(file);
    texts.push({ file, text: bytes.toString("latin1") });
    if (file.endsWith(".zip")) {
      for (const [name, content] of Object.entries(unzipSync(bytes)))
        texts.push({ file: `${file}:${name}`, text: Buffer.from(content).toString("latin1") });
    }
    if (file.endsWith(".png")) texts.push({ file: `${file} (metadata)`, text: pngMetadata(bytes) });
  }
  return texts;
}

/** Where any form of any of `values` is in `texts`, as `file: value`; and where the word `marker` is, which each of them holds. */
export function found(texts: ReadonlyArray<FileText>, values: ReadonlyArray<string>, marker: string): string[] {
  return texts.flatMap(({ file, text }) => [
    ...values.flatMap((value) =>
      forms(value)
        .filter((form) => text.includes(form))
        .map((form) => `${file}: ${form}`),
    ),
    ...(text.includes(marker) ? [`${file}: ${marker}`] : []),
  ]);
}
