/**
 * An app's output kept within a budget: the first `half` characters as they came and the latest
 * `half`, with a line saying how much was left out between them. An app that floods its output
 * costs neither the memory nor a log and report of that size, and what a person reads to see why
 * it failed (how it started, how it ended) stays.
 */
export class BoundedLog {
  private head = "";
  private readonly tail: string[] = [];
  private tailLength = 0;
  private omitted = 0;

  constructor(private readonly half: number) {}

  /** Whether anything was left out. */
  get truncated(): boolean {
    return this.omitted > 0;
  }

  push(chunk: string): void {
    const room = this.half - this.head.length;
    if (room > 0) this.head += chunk.slice(0, room);
    const rest = room > 0 ? chunk.slice(room) : chunk;
    if (rest === "") return;
    this.tail.push(rest);
    this.tailLength += rest.length;
    while (this.tailLength > this.half) {
      const first = this.tail[0] ?? "";
      const excess = this.tailLength - this.half;
      if (first.length <= excess) this.tail.shift();
      else this.tail[0] = first.slice(excess);
      const dropped = Math.min(first.length, excess);
      this.tailLength -= dropped;
      this.omitted += dropped;
    }
  }

  text(): string {
    const tail = this.tail.join("");
    return this.omitted === 0 ? this.head + tail : `${this.head}\n[scenario-harness: ${this.omitted} characters of the app's output left out here]\n${tail}`;
  }
}
