// Holds a phase of a proof for the kill-matrix test: says it got there with a file
// `reached-<phase>-<pid>` in the markers folder, then waits until the test opens the markers
// folder's `release` FIFO (a blocking open, so no time is waited out). Used as the install and
// build commands; the config and the app call `hold` themselves.
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

export async function hold(phase, markers) {
  writeFileSync(join(markers, `reached-${phase}-${process.pid}`), "");
  await readFile(join(markers, "release"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [phase, markers] = process.argv.slice(2);
  await hold(phase, markers);
}
