#!/usr/bin/env node
// prove-scenario: runs the TypeScript prover through tsx, so a dependent repo needs no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../prove/index.ts");
process.exitCode = await main(process.argv.slice(2));
