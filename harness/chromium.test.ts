import { describe, expect, it } from "vitest";
import { headlessShell, headlessShellBinary, resolveChromium } from "./chromium.ts";

const system = "/usr/bin/chromium";
const mine = "/opt/my-chrome/chrome";

describe("the browser a run gets", () => {
  it.each([
    { installed: [headlessShellBinary, headlessShell, system], env: {}, headless: true, picked: headlessShellBinary },
    { installed: [headlessShellBinary, headlessShell, system], env: {}, headless: false, picked: system },
    { installed: [headlessShell, system], env: {}, headless: true, picked: headlessShell },
    { installed: [headlessShell, system], env: {}, headless: false, picked: system },
    { installed: [system], env: {}, headless: true, picked: system },
    { installed: [headlessShell, system, mine], env: { SCENARIO_CHROMIUM: mine }, headless: true, picked: mine },
    { installed: [headlessShell, system, mine], env: { SCENARIO_CHROMIUM: mine }, headless: false, picked: mine },
  ])(
    "with $installed installed, SCENARIO_CHROMIUM $env.SCENARIO_CHROMIUM and headless $headless: $picked",
    ({ installed, env, headless, picked }) => {
      const choice = resolveChromium(env, headless, (path) => installed.includes(path));
      expect(choice).toEqual({ found: true, executablePath: picked, source: picked === mine ? "SCENARIO_CHROMIUM" : picked });
    },
  );

  it("is none when SCENARIO_CHROMIUM names a missing file, though others are installed, and says to fix or unset it", () => {
    const choice = resolveChromium({ SCENARIO_CHROMIUM: mine }, true, (path) => path === headlessShell || path === system);
    expect(choice).toEqual({
      found: false,
      problem: `SCENARIO_CHROMIUM is set to ${mine}, which does not exist: point it at a Chromium or Chrome binary, or unset it.`,
    });
  });

  it("is the headed one's for a headed run where only the headless shell is installed: none, saying how to get one", () => {
    const choice = resolveChromium({}, false, (path) => path === headlessShell || path === headlessShellBinary);
    expect(choice.found).toBe(false);
    expect(choice.found ? "" : choice.problem).toContain("apt-get install -y chromium chromium-headless-shell");
  });
});
