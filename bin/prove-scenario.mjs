#!/usr/bin/env node
// prove-scenario: the prover's CLI, from the source in a clone or from the built package.
import { load } from "./load.mjs";

const { main } = await load("prove/index.ts", "prove-scenario.js");
process.exitCode = await main(process.argv.slice(2));
