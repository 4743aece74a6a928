export { defaultBugId, findBug, listBugs, type ZooBug } from "./bugs.ts";
export { createDemoSandbox, proofArguments, type DemoSandbox, type DemoSandboxOptions } from "./sandbox.ts";
export { BrokenBug, NoZoo, SandboxFailed, UnknownBug } from "./errors.ts";
