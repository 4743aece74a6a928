import { describe, expect, it } from "vitest";
import { appEnvironment } from "./environment.ts";

const input = (developer: NodeJS.ProcessEnv) => ({
  app: { start: "node server.js", homeEnv: "APP_HOME" },
  dirs: { home: "/run/home", appHome: "/run/app-home" },
  port: 4100,
  replayUrl: undefined,
  replayCommand: undefined,
  developer,
});

describe("the app's environment", () => {
  it("keeps the developer's TMPDIR, and in a proof the prover's instead of the Playwright run's own", () => {
    const developer = { PATH: "/usr/bin", TMPDIR: "/tmp", OPENAI_API_KEY: "sk-developer" };
    expect(appEnvironment(input(developer))).toMatchObject({
      PATH: "/usr/bin",
      TMPDIR: "/tmp",
      HOME: "/run/home",
      APP_HOME: "/run/app-home",
      PORT: "4100",
    });
    const inProof = appEnvironment(input({ ...developer, TMPDIR: "/run/attempt/tmp", SCENARIO_APP_TMPDIR: "/tmp" }));
    expect(inProof.TMPDIR).toBe("/tmp");
    expect(Object.keys(inProof).filter((name) => name.startsWith("SCENARIO_") || name.includes("API_KEY"))).toEqual([]);
  });
});
