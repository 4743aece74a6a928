export { test, expect, type ScenarioFixtures, type ScenarioTestOptions } from "./fixtures.ts";
export {
  defineScenarioConfig,
  type ScenarioAppConfig,
  type ScenarioConfig,
  type ScenarioProofConfig,
  type ReadyCheck,
  type ServiceConfig,
  type PostgresServiceConfig,
  type CommandServiceConfig,
  type AppProcessConfig,
} from "./config.ts";
export type { ScenarioApp, CliResult, OpenOptions } from "./app.ts";
export type { InteractiveSignal } from "./interactive.ts";
export type { ScenarioAgent } from "./agent.ts";
export { HarnessError, type HarnessErrorKind } from "./errors.ts";
