import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readSync, statSync, watch } from "node:fs";
import { join } from "node:path";
import { isChatEvent, type ChatEvent } from "./events.ts";

const newline = 0x0a;

/**
 * The append-only NDJSON file in the home directory. Several processes append to it (the
 * server and the CLI), each event in one write, so lines never interleave.
 */
export class EventLog {
  readonly path: string;
  #offset = 0;

  constructor(home: string) {
    mkdirSync(home, { recursive: true });
    this.path = join(home, "events.ndjson");
    appendFileSync(this.path, "");
  }

  append(event: ChatEvent): void {
    appendFileSync(this.path, `${JSON.stringify(event)}\n`);
  }

  /** Ends a line torn by a crash mid-write, so the next event starts on a line of its own. */
  repairTornTail(): void {
    const size = statSync(this.path).size;
    if (size > 0 && this.#read(size - 1)[0] !== newline) appendFileSync(this.path, "\n");
  }

  /** The events appended since the last call; a line still being written waits for the next. */
  readNew(): ChatEvent[] {
    const bytes = this.#read(this.#offset);
    const end = bytes.lastIndexOf(newline) + 1;
    this.#offset += end;
    return parseLines(bytes.subarray(0, end).toString("utf8"));
  }

  readAll(): ChatEvent[] {
    return parseLines(this.#read(0).toString("utf8"));
  }

  watch(onChange: () => void): () => void {
    const watcher = watch(this.path, onChange);
    return () => watcher.close();
  }

  #read(from: number): Buffer {
    const fd = openSync(this.path, "r");
    try {
      const size = fstatSync(fd).size;
      const buffer = Buffer.alloc(Math.max(0, size - from));
      let filled = 0;
      while (filled < buffer.length) {
        const n = readSync(fd, buffer, filled, buffer.length - filled, from + filled);
        if (n === 0) break;
        filled += n;
      }
      return buffer.subarray(0, filled);
    } finally {
      closeSync(fd);
    }
  }
}

function parseLines(text: string): ChatEvent[] {
  const events: ChatEvent[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const parsed = parseLine(line);
    if (parsed) events.push(parsed);
    else console.warn(`agent-chat: skipping an unreadable event log line: ${line.slice(0, 200)}`);
  }
  return events;
}

function parseLine(line: string): ChatEvent | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isChatEvent(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
