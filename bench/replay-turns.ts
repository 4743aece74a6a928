import { median } from "./figure.ts";

/** One run's measurement of each server, by name. */
export type Turn<Name extends string, Run> = Readonly<Record<Name, Run>>;

/**
 * Measures each server once to warm it up, then `runs` times in an order that rotates from run
 * to run, so that a change in the machine's load between runs falls on every server alike and
 * cancels out of ratios taken within a run.
 */
export async function inTurns<Name extends string, Run>(
  names: ReadonlyArray<Name>,
  runs: number,
  measure: (name: Name) => Promise<Run>,
): Promise<ReadonlyArray<Turn<Name, Run>>> {
  for (const name of names) await measure(name);
  const turns: Array<Turn<Name, Run>> = [];
  for (let index = 0; index < runs; index++) {
    const turn = new Map<Name, Run>();
    for (let offset = 0; offset < names.length; offset++) {
      const name = names[(index + offset) % names.length];
      if (name !== undefined) turn.set(name, await measure(name));
    }
    turns.push(Object.fromEntries(turn) as Turn<Name, Run>);
  }
  return turns;
}

/** The median over the runs of `value`. */
export const medianOf = <Name extends string, Run>(turns: ReadonlyArray<Turn<Name, Run>>, value: (turn: Turn<Name, Run>) => number) =>
  median(turns.map(value));
