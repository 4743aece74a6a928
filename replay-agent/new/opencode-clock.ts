import { draw } from "./ids.ts";

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** When the session a new transcript describes starts: 2025-11-30T10:53:20.000Z, in ms. */
const start = 1764500000000;

/** A session's clock: the time OpenCode's server stamps on what it publishes, and its ids, made from that time. */
export interface OpencodeClock {
  /** The time now, in ms. */
  readonly now: () => number;
  /** Moves the clock `ms` on and returns the new time. */
  readonly tick: (ms: number) => number;
  /**
   * An id as OpenCode's `Identifier` makes one now: the prefix, then 12 hex digits of the time in
   * ms times 4096 plus a counter of the ids made in that ms (bits flipped for a descending id, as
   * session ids are, so the newest sorts first), then 14 base62 characters.
   */
  readonly id: (prefix: "ses" | "msg" | "prt", order?: "ascending" | "descending") => string;
}

/** A clock starting at the same time for every description; `seed` makes the random part of its ids. */
export const opencodeClock = (seed: string): OpencodeClock => {
  let now = start;
  let stamped = 0;
  let counter = 0;
  let made = 0;
  return {
    now: () => now,
    tick: (ms) => (now += ms),
    id: (prefix, order = "ascending") => {
      if (stamped !== now) [stamped, counter] = [now, 0];
      counter += 1;
      made += 1;
      const value = BigInt(now) * 0x1000n + BigInt(counter);
      const bits = (order === "descending" ? ~value : value) & 0xffffffffffffn;
      return `${prefix}_${bits.toString(16).padStart(12, "0")}${draw(`opencode|${seed}|${made}`, 14, base62)}`;
    },
  };
};
