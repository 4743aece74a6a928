import * as Effect from "effect/Effect";
import type sharpModule from "sharp";
import { ImagesUnavailable } from "../errors.ts";

/**
 * sharp, loaded when first needed: loading it (its native binding) takes about 0.15 CPU-s, which a
 * prover that ends before listing a scenario (bad input, a stop, help) or writes no image need not pay.
 */
export const loadSharp = async (): Promise<typeof sharpModule> => (await import("sharp")).default;

/** sharp loaded, or why it cannot be on this machine. */
const imagesReady: Effect.Effect<void, ImagesUnavailable> = Effect.tryPromise({
  try: loadSharp,
  catch: (error) => new ImagesUnavailable({ detail: error instanceof Error ? error.message : String(error) }),
});

/**
 * `listing` (a command's scenarios being listed) with sharp loaded beside it: a command that
 * reports images stops on a machine without sharp before any side runs, not after both.
 */
export const listedWithImages = <A, E, R>(listing: Effect.Effect<A, E, R>): Effect.Effect<A, E | ImagesUnavailable, R> =>
  Effect.zipWith(listing, imagesReady, (listed) => listed, { concurrent: true });
