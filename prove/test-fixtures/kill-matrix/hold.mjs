// Holds a phase of a proof for the kill-matrix test: says it got there with a file
// `reached-<phase>-<pid>` in the markers folder, then waits until the test writes
// `released-<pid>` there. It watches the folder from before it writes the marker, so a release
// that comes at any time after the marker is seen, and no time is waited out. (A FIFO opened for
// reading, as before, missed a release that came before the open: the proof was then held for good.)
// Used as the install and build commands and by the git wrapper; the config and the app call
// `hold` themselves. Arguments after the markers folder are the held command's, only to be named.
import { existsSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";

export function hold(phase, markers) {
  const released = `released-${process.pid}`;
  return new Promise((resolve) => {
    const watcher = watch(markers, (_event, name) => {
      if (name === released) go();
    });
    function go() {
      watcher.close();
      resolve();
    }
    writeFileSync(join(markers, `reached-${phase}-${process.pid}`), "");
    if (existsSync(join(markers, released))) go();
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [phase, markers] = process.argv.slice(2);
  await hold(phase, markers);
}
