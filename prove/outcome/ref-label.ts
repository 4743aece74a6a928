/** Whether `ref` is the commit's SHA itself, whole or abbreviated, rather than a branch, tag or expression. */
export function isShaOf(ref: string, sha: string | null | undefined): sha is string {
  return typeof sha === "string" && /^[0-9a-f]{4,40}$/i.test(ref) && sha.startsWith(ref.toLowerCase());
}

/** A side's ref in a sentence: as the user typed it, or the 7-character SHA when what they typed was the SHA. */
export function refLabel(ref: string, sha: string | null | undefined): string {
  return isShaOf(ref, sha) ? sha.slice(0, 7) : ref;
}
