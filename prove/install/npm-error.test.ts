import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { npmErrorBlock } from "./npm-error.ts";

/** What npm 11 printed for `npm ci` with a lockfile that lacks a dependency package.json lists, here. */
const eusage = readFileSync(join(import.meta.dirname, "samples", "npm-ci-eusage.txt"), "utf8");

describe("npm's error block in an install's log", () => {
  it("keeps npm's error from its code line to its usage text, without the command's description", () => {
    expect(npmErrorBlock(eusage)?.split("\n")).toEqual([
      "npm error code EUSAGE",
      "npm error",
      "npm error `npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with `npm install` before continuing.",
      "npm error",
      "npm error Missing: left-pad@1.3.0 from lock file",
    ]);
  });

  it.each([
    [
      "an older npm's error, without usage text",
      "added 3 packages\nnpm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR!\n",
      "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree",
    ],
    ["a log with no npm error", 'error Couldn\'t find package "x" on the "npm" registry.\n', undefined],
  ])("%s", (_, log, block) => {
    expect(npmErrorBlock(log)).toBe(block);
  });
});
