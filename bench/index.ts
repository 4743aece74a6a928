// `pnpm bench [group...]`: measures the speed figures docs/performance.md reports and prints each as one
// JSON line, {"figure", "value", "unit", "goal"} (goal null when there is none), so a script
// can check them. Groups: replay, route, readiness, scenario, prove, services, all of them by default;
// and faster, run only when named (the performance proof's runs quiet and loaded: an hour and more). Ratios are
// measured side by side in one run; absolute times vary with the machine.
import type { Figure } from "./figure.ts";
import { rounded } from "./figure.ts";
import { fasterFigures } from "./faster.ts";
import { proveFigures } from "./prove.ts";
import { readinessFigures } from "./readiness.ts";
import { replayFigures } from "./replay.ts";
import { routeFigures } from "./route.ts";
import { scenarioFigures } from "./scenario-duration.ts";
import { servicesFigures } from "./services.ts";

const groups: Readonly<Record<string, () => Promise<ReadonlyArray<Figure>>>> = {
  replay: replayFigures,
  route: () => routeFigures(),
  readiness: readinessFigures,
  scenario: () => scenarioFigures(),
  prove: () => proveFigures(),
  services: () => servicesFigures(),
};

/** Groups run only when named: each takes long (faster: 60 performance proofs, an hour and more). */
const named: Readonly<Record<string, () => Promise<ReadonlyArray<Figure>>>> = {
  faster: fasterFigures,
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in groups) && !(name in named));
if (unknown.length > 0) {
  console.error(
    `bench: unknown group ${unknown.join(", ")}; the groups are ${[...Object.keys(groups), ...Object.keys(named)].join(", ")}.`,
  );
  process.exit(2);
}
for (const name of asked.length === 0 ? Object.keys(groups) : asked) {
  for (const figure of (await (groups[name] ?? named[name])?.()) ?? [])
    console.log(JSON.stringify({ ...figure, value: rounded(figure.value, figure.unit) }));
}
