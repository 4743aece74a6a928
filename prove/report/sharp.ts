import * as Effect from "effect/Effect";
import type sharpModule from "sharp";
import { ImagesUnavailable } from "../errors.ts";

/**
 * sharp, loaded when first needed: loading it (its native binding)
 * takes about 0.15 CPU-s, which a prover that ends before any screenshot (bad input, a stop, help)
 * need not pay.
 */
export const loadSharp = async (): Promise<typeof sharpModule> => (await import("sharp")).default;

/**
 * sharp loaded, or why it cannot be on this machine: a command that reports images checks it
 * beside listing its scenarios, so a machine without it stops before any side runs, not after both.
 */
export const imagesReady: Effect.Effect<void, ImagesUnavailable> = Effect.tryPromise({
  try: loadSharp,
  catch: (error) => new ImagesUnavailable({ detail: error instanceof Error ? error.message : String(error) }),
}).pipe(Effect.asVoid);
