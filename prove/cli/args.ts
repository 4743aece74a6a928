// Re-exports prove/options/ for the modules that still import the command line's reading from here.
export * from "../options/index.ts";
