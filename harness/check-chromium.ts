// Run after `pnpm install`: stops the install with instructions when no Chromium can be found.
import { resolveChromium } from "./chromium.ts";

const choice = resolveChromium();
if (choice.found) {
  console.log(`scenario-prover: browser ${choice.executablePath ?? "from Playwright"} (${choice.source})`);
} else {
  console.error(`scenario-prover: ${choice.problem}`);
  process.exit(1);
}
