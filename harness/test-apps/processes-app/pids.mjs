// Notes a process of the app in PROCESSES_APP_PIDS (when set), as <role>-<PORT>.pid holding its pid, so the harness's
// test can check that none is left running once the run is over.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** Writes this process's pid file for `role`; its path, or undefined when PROCESSES_APP_PIDS is not set. */
export function notePid(role) {
  const dir = process.env.PROCESSES_APP_PIDS;
  if (dir === undefined || dir === "") return undefined;
  const file = join(dir, `${role}-${process.env.PORT}.pid`);
  writeFileSync(file, String(process.pid));
  return file;
}
