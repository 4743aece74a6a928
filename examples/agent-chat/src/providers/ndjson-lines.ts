/**
 * Splits a newline-delimited JSON body (`application/x-ndjson`) into its lines as the body's reads
 * arrive. A read can end anywhere, in the middle of a line or of a UTF-8 character, so the part
 * after the last line break waits for the next read: a line is complete only at its newline.
 */
export class NdjsonLineParser {
  readonly #decoder = new TextDecoder();
  #partialLine = "";

  /** Adds one read and returns every non-blank line it completes, in order. */
  push(bytes: Uint8Array): string[] {
    const lines = (this.#partialLine + this.#decoder.decode(bytes, { stream: true })).split("\n");
    this.#partialLine = lines.pop() ?? "";
    return lines.map((line) => line.replace(/\r$/, "")).filter((line) => line.trim() !== "");
  }

  /** The last line, when the body ended without a newline after it. */
  end(): string[] {
    const rest = (this.#partialLine + this.#decoder.decode()).trim();
    this.#partialLine = "";
    return rest === "" ? [] : [rest];
  }
}
