import { InitFailed, InitRefused, initScenarios } from "../init/index.ts";
import { writeErr } from "../progress/output.ts";

/** `init`: writes a starter config and scenario for the app in cwd, and says what it found and what is next. */
export async function init(cwd: string): Promise<number> {
  try {
    const result = await initScenarios(cwd);
    for (const line of result.detected) writeErr(`detected: ${line}`);
    for (const file of result.written) writeErr(`wrote ${file}`);
    for (const note of result.notes) writeErr(`note: ${note}`);
    writeErr(
      `next: run the example against your app with \`${result.exampleCommand}\`, make it reproduce your bug, then prove the fix:\n  ${result.proveCommand}`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof InitRefused || error instanceof InitFailed)) throw error;
    writeErr(error.message);
    return 2;
  }
}
