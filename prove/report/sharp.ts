import type sharpModule from "sharp";

/**
 * sharp, loaded when a report first reads or writes an image: loading it (its native binding)
 * takes about 0.15 CPU-s, which a prover that ends before any screenshot (bad input, a stop, help)
 * need not pay.
 */
export const loadSharp = async (): Promise<typeof sharpModule> => (await import("sharp")).default;
