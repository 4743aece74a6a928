#!/usr/bin/env node
// The replay-agent CLI: registers tsx so the TypeScript sources run on Node 20, from this repo or a dependent one.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../replay-agent/cli.ts");
process.exitCode = await main(process.argv.slice(2));
