export { defaultBugId, findBug, listBugs, type ZooBug } from "./bugs.ts";
export {
  createDemoSandbox,
  createZooSandbox,
  proofArguments,
  type DemoSandbox,
  type DemoSandboxOptions,
  type ZooSandbox,
} from "./sandbox.ts";
export { BrokenBug, NoZoo, SandboxFailed, UnknownBug } from "./errors.ts";
export { writeSandboxFiles } from "./sandbox-files.ts";
