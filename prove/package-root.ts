import { fileURLToPath } from "node:url";

/** This package's root folder: one up from the source (prove/), two up from a bundle (dist/bin/, dist/lib/). */
export const packageRoot = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? ".." : "../..", import.meta.url));
