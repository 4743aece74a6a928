/** The difference image's defaults, apart from diff-image.ts so the command line can name them without loading sharp. */

/**
 * How far (0..255) any channel of a pixel may move before the pixel counts as changed. 16 is about
 * 6 %: font antialiasing, subpixel rendering and JPEG-like jitter move a channel by a few steps, while
 * any colour a person would call different (a recoloured button, text appearing) moves it by far more.
 */
export const defaultTolerance = 16;

/**
 * The share of changed pixels (0..1) at or below which two screenshots count as unchanged: 0.001, one
 * pixel in a thousand (about 920 pixels of a 1280×720 page). A caret blinking or a stray antialiased
 * edge stays under it; a changed word or icon does not.
 */
export const defaultThreshold = 0.001;
