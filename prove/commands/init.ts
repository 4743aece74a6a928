import { InitFailed, InitRefused, initScenarios } from "../init/index.ts";
import { writeErr } from "../progress/output.ts";

/**
 * `init`: writes a starter config and scenario for the app in cwd, and says what it found, what it
 * tried and what is next. Exits 1 when the install or the start it wrote failed as it tried them.
 */
export async function init(cwd: string): Promise<number> {
  try {
    const result = await initScenarios(cwd, { progress: (line) => writeErr(`init: ${line}`) });
    for (const line of result.detected) writeErr(`detected: ${line}`);
    for (const line of result.tried) writeErr(`tried: ${line}`);
    for (const file of result.written) writeErr(`wrote ${file}`);
    for (const note of result.notes) writeErr(`note: ${note}`);
    for (const failure of result.failed) writeErr(`failed: ${failure}`);
    writeErr(
      `next: run the example against your app with \`${result.exampleCommand}\`, make it reproduce your bug, then prove the fix:\n  ${result.proveCommand}`,
    );
    return result.failed.length === 0 ? 0 : 1;
  } catch (error) {
    if (!(error instanceof InitRefused || error instanceof InitFailed)) throw error;
    writeErr(error.message);
    return 2;
  }
}
