export { initScenarios, type InitResult } from "./init.ts";
export { InitFailed, InitRefused } from "./errors.ts";
