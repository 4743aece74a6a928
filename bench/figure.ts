/** One measured figure, printed by `pnpm bench` as one JSON line so a script can check it against its goal. */
export interface Figure {
  readonly figure: string;
  readonly value: number;
  readonly unit: string;
  /** The target; null when the figure is reported without one. */
  readonly goal: number | null;
}

export function median(values: ReadonlyArray<number>): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Rounds a figure for printing: ratios to 3 decimals, times to 0.1 ms. */
export const rounded = (value: number, unit: string) => (unit === "ratio" ? Math.round(value * 1000) / 1000 : Math.round(value * 10) / 10);
