/** The difference image's defaults, apart from diff-image.ts so the command line can name them without loading sharp. */

/** How far (0..255) any channel of a pixel may move before it counts as changed: above antialiasing jitter, below a real colour change. */
export const defaultTolerance = 16;

/** The share of changed pixels (0..1) at or below which two screenshots count as unchanged: above a caret's blink, below a changed word. */
export const defaultThreshold = 0.001;
