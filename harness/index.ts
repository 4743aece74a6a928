export { test, expect, type ScenarioFixtures, type ScenarioTestOptions } from "./fixtures.ts";
export {
  defineScenarioConfig,
  type ScenarioAppConfig,
  type ScenarioConfig,
  type ScenarioProofConfig,
  type ReadyCheck,
  type AppProcessConfig,
  type ServiceConfig,
  type PostgresServiceConfig,
  type CommandServiceConfig,
  type RedisServiceConfig,
  type MysqlServiceConfig,
} from "./config.ts";
export type { ScenarioApp, CliResult, OpenOptions } from "./app.ts";
export type { InteractiveSignal } from "./interactive.ts";
export type { Measurement } from "./measure.ts";
export type { ScenarioAgent } from "./agent.ts";
export { HarnessError, type HarnessErrorKind } from "./errors.ts";
