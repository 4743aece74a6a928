export {
  loadTranscript,
  startReplayServer,
  type ReplayMismatch,
  type ReplayRequest,
  type ReplayServer,
  type ReplayStatus,
} from "./replay-server.ts";
export { startStdioPeer, type StdioPeer, type StdioPeerMessage, type StdioPeerStatus } from "./stdio-peer.ts";
export { readTranscript, validateTranscript } from "./read-transcript.ts";
export { descriptionFromFlags } from "./new/from-flags.ts";
export { newTranscript } from "./new/new-transcript.ts";
export { quoteArgs } from "./new/quote-args.ts";
export { serveTranscript, type ServedTranscript } from "./serve-transcript.ts";
export { serveStdio, type ServedStdio, type StdioEnd } from "./stdio/serve-stdio.ts";
export { recordProxy, type Recorder, type RecordOptions } from "./record/record-proxy.ts";
export { parseTranscript } from "./transcript/parse.ts";
export { summarizeTranscript, type TranscriptSummary } from "./transcript/summary.ts";
export type { AnswerEntry, Located, Transcript, TranscriptEntry } from "./transcript/transcript.ts";
export { routedHostsOf } from "./providers/registry.ts";
export { providers, providerTransport } from "./transcript/providers.ts";
export type { HttpProvider, Provider, StdioProvider, Transport, WebSocketProvider } from "./transcript/providers.ts";
export type { HttpRequest } from "./http/read-request.ts";
export type { ReplayRuntime, RuntimeStatus } from "./runtime/replay-runtime.ts";
export { requestExcerpt } from "./runtime/request-excerpt.ts";
export { describeMessage } from "./cli/format.ts";
export {
  ListenError,
  MissingKeyError,
  NotPausedError,
  PauseNotReachedError,
  PeerNotRunningError,
  RecordOutputError,
  ReplayMismatchError,
  TranscriptError,
  TranscriptReadError,
  UpstreamError,
  UsageError,
  WrongTransportError,
} from "./errors.ts";
