import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ScenarioApp } from "../../../harness/index.ts";

/** Where a scenario's app ran, as prove/e2e/express.test.ts reads it: the port, the app's home, the worktree. */
export interface AppPlace {
  readonly port: number;
  readonly home: string;
  readonly root: string;
}

/** Writes down where `app` runs, into the folder $SCENARIO_CONCURRENCY_PLACES names (nothing when it is not set). */
export async function writePlace(app: ScenarioApp): Promise<void> {
  const dir = process.env.SCENARIO_CONCURRENCY_PLACES;
  if (dir === undefined) return;
  const place: AppPlace = { port: Number(new URL(app.url).port), home: app.home, root: process.env.SCENARIO_APP_ROOT ?? "" };
  await writeFile(join(dir, `${randomUUID()}.json`), JSON.stringify(place));
}
