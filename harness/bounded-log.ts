/**
 * An app's output within a budget: its first and its latest `half` characters, with a line saying
 * how much was left out between them, cut at line ends where there are any.
 */
export class BoundedLog {
  private head = "";
  private readonly tail: string[] = [];
  private tailLength = 0;
  private omitted = 0;
  /** Whether the latest character left out ended a line, so the tail starts a line. */
  private tailStartsLine = false;

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
      const dropped = Math.min(first.length, excess);
      this.tailStartsLine = first[dropped - 1] === "\n";
      if (first.length <= excess) this.tail.shift();
      else this.tail[0] = first.slice(excess);
      this.tailLength -= dropped;
      this.omitted += dropped;
    }
  }

  text(): string {
    const tail = this.tail.join("");
    if (this.omitted === 0) return this.head + tail;
    // The head up to its last whole line and the tail from its first, when they have line ends.
    const headEnd = this.head.lastIndexOf("\n") + 1;
    const head = headEnd > 0 ? this.head.slice(0, headEnd) : this.head;
    const tailStart = this.tailStartsLine ? 0 : tail.indexOf("\n") + 1;
    const rest = tailStart > 0 && tailStart < tail.length ? tail.slice(tailStart) : tail;
    const omitted = this.omitted + (this.head.length - head.length) + (tail.length - rest.length);
    return `${head.endsWith("\n") ? head : `${head}\n`}[scenario-harness: ${omitted} characters of the app's output left out here]\n${rest}`;
  }
}
