import { existsSync } from "node:fs";
import { join } from "node:path";
import { ownFolder, type OwnPlaywright } from "../playwright/own-playwright.ts";
import { upgradeCommand, type PlaywrightMismatch } from "../playwright/version.ts";
import { writeNewFile } from "./write.ts";

/** Where init writes the config and the example: the app's folder, or ownFolder in it, a package of its own. */
export interface OwnWrites {
  /** The folder the config and the example go to, absolute. */
  readonly dir: string;
  /** What goes before a command run from the app's folder: "cd proofs && ", or nothing. */
  readonly cd: string;
  /** A file of init's (relative to `dir`) as init prints it, relative to the app's folder. */
  readonly shown: (file: string) => string;
  /** Writes ownFolder's package.json when it has none; returns the files written, as shown. */
  readonly start: () => Promise<string[]>;
}

/** Where init writes for the app in `dir`, given the way on for an out-of-range Playwright (undefined: none needed). */
export function ownWrites(dir: string, own: OwnPlaywright | undefined): OwnWrites {
  if (own === undefined || own.folder === ".") return { dir, cd: "", shown: (file) => file, start: () => Promise.resolve([]) };
  const folder = join(dir, own.folder);
  const shown = (file: string) => `${own.folder}/${file}`;
  return {
    dir: folder,
    cd: `cd ${own.folder} && `,
    shown,
    start: async () => {
      if (existsSync(join(folder, "package.json"))) return [];
      // A package.json of its own makes every package manager install there, not in the app's package.
      await writeNewFile(join(folder, "package.json"), `${JSON.stringify({ private: true }, null, 2)}\n`);
      return [shown("package.json")];
    },
  };
}

/** The note that names the repository's Playwright, the range, and the command that gives the scenarios their own. */
export function ownPlaywrightNote(own: OwnPlaywright, mismatch: PlaywrightMismatch): string {
  const found = mismatch.detail.charAt(0).toUpperCase() + mismatch.detail.slice(1);
  const where =
    own.folder === "."
      ? "this package of the workspace takes its own beside it"
      : `the config and the example are in ${ownFolder}/, a package of its own`;
  return (
    `${found} To leave your own suite on it, ${where}: run \`${own.command}\` before running the example` +
    `${own.folder === "." ? "" : `, and run the prover from ${ownFolder}/`}; or put one in range in its place: ${upgradeCommand()}.`
  );
}
