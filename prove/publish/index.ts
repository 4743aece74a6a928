export { publishReport, type PublishOptions, type PublishResult } from "./publish.ts";
export {
  BadImageUrl,
  BadReport,
  BranchKeptMoving,
  FetchFailed,
  GitFailed,
  ImageUrlNeeded,
  PrWriteFailed,
  PushFailed,
  ReportNotFound,
  UnknownRemote,
  type PublishError,
} from "./errors.ts";
