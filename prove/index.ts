export { main } from "./cli.ts";
export {
  parseCommand,
  usage,
  type Command,
  type CompareOptions,
  type ProveOptions,
  type RunOptions,
  type ScenarioOptions,
} from "./options/index.ts";
export type {
  ProofReport,
  ReportDifference,
  ReportDifferences,
  ReportFailureDifference,
  ReportSide,
  ReportScreenshot,
} from "./report/schema.ts";
export type { Attempt, AttemptError, AttemptErrorKind, ExitCode, Outcome, ReasonCode, Verdict } from "./outcome/types.ts";
export type { CompareLabel, CompareReasonCode, CompareReport, LabelVerdict } from "./compare/schema.ts";
