/**
 * Splits a `text/event-stream` body into the `data` of each event as the body's reads arrive.
 * A read can end anywhere, in the middle of a line or of a UTF-8 character, so the part after
 * the last line break waits for the next read, and an event is complete only at its blank line.
 */
export class EventStreamParser {
  readonly #decoder = new TextDecoder();
  #partialLine = "";
  #dataLines: string[] = [];

  /** Adds one read and returns the data of every event it completes, in order. */
  push(bytes: Uint8Array): string[] {
    const lines = (this.#partialLine + this.#decoder.decode(bytes, { stream: true })).split("\n");
    this.#partialLine = lines.pop() ?? "";
    const events: string[] = [];
    for (const line of lines.map((text) => text.replace(/\r$/, ""))) {
      if (line === "") {
        if (this.#dataLines.length > 0) events.push(this.#dataLines.join("\n"));
        this.#dataLines = [];
      } else if (line.startsWith("data:")) {
        this.#dataLines.push(line.slice("data:".length).replace(/^ /, ""));
      }
      // Comments (`:`) and the `event`, `id` and `retry` fields: chat completions send none the app needs.
    }
    return events;
  }
}
