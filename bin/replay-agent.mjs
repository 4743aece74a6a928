#!/usr/bin/env node
// replay-agent: the replay agent's CLI, from the source in a clone or from the built package.
import { load } from "./load.mjs";

const { main } = await load("replay-agent/cli.ts", "replay-agent.js");
process.exitCode = await main(process.argv.slice(2));
