// A worker beside the app's server: it listens on nothing, and says when it is ready (unless --quiet), then waits.
import { notePid } from "./pids.mjs";

notePid("worker");
if (!process.argv.includes("--quiet")) console.log("worker ready");
setInterval(() => {}, 60_000);
