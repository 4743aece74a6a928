// What one write a frame costs the replay agent on each transport: it streams a long answer, each
// frame its own write, against a plain server of the same transport writing the same frames one
// write each (each awaited), read by a reader in a process of its own, as an app reads; runs are
// taken in turns on the same machine, ratios within a run, and each figure is the median.
// `tsx bench/replay.ts` prints them.
import { pathToFileURL } from "node:url";
import { rounded, type Figure } from "./figure.ts";
import { httpFigures } from "./replay-http.ts";
import { stdioFigures } from "./replay-stdio.ts";
import { websocketFigures } from "./replay-websocket.ts";

/** The HTTP frame kinds' figures (replay-http.ts), then the WebSocket's (replay-websocket.ts) and stdio's (replay-stdio.ts). */
export async function replayFigures(runs = 11): Promise<Figure[]> {
  return [...(await httpFigures(runs)), ...(await websocketFigures(runs)), ...(await stdioFigures(runs))];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await replayFigures()) console.log(JSON.stringify({ ...figure, value: rounded(figure.value, figure.unit) }));
}
