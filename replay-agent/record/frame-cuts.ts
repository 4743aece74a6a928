import type { Cut } from "../transcript/schema.ts";

/**
 * Where the upstream's chunk boundaries inside one event fall in the frame the replay agent
 * writes for it: the `cut` offsets of its sse line. `offsets` are byte offsets into `raw`, the
 * event's bytes as the upstream sent them; the result are byte offsets into `written`, the frame
 * as it is replayed (redacted, `data: ` and one line of JSON). When the two are the same bytes, as
 * they are for a provider that writes compact JSON, every offset stays as it was. Otherwise an
 * offset in the bytes both start with keeps its place counted from the start, one in the bytes
 * both end with keeps its place counted from the end, and one in the part that differs (a CRLF,
 * an `id:` line, a space, a redacted secret) lands at the same proportion of that part. Each is
 * kept from 1 to the frame's length - 1, and offsets that land on one byte become one cut.
 * `delays[i]`, the whole ms the upstream took before the chunk that starts at `offsets[i]`,
 * makes that cut `{"at","delay"}` (offsets that become one cut add their delays).
 */
export const frameCuts = (
  raw: Uint8Array,
  written: Uint8Array,
  offsets: ReadonlyArray<number>,
  delays: ReadonlyArray<number> = [],
): ReadonlyArray<Cut> => {
  const shortest = Math.min(raw.length, written.length);
  let prefix = 0;
  while (prefix < shortest && raw[prefix] === written[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shortest - prefix && raw[raw.length - 1 - suffix] === written[written.length - 1 - suffix]) suffix++;
  const rawMiddle = raw.length - prefix - suffix;
  const writtenMiddle = written.length - prefix - suffix;
  const place = (offset: number): number => {
    if (offset <= prefix) return offset;
    if (raw.length - offset <= suffix) return written.length - (raw.length - offset);
    return prefix + Math.round(((offset - prefix) * writtenMiddle) / rawMiddle);
  };
  const cuts: Array<{ at: number; delay: number }> = [];
  offsets.forEach((offset, index) => {
    const at = Math.min(Math.max(place(offset), 1), written.length - 1);
    const delay = delays[index] ?? 0;
    const last = cuts.at(-1);
    if (last !== undefined && at <= last.at) last.delay += delay;
    else cuts.push({ at, delay });
  });
  return cuts.map(({ at, delay }) => (delay >= 1 ? { at, delay } : at));
};
