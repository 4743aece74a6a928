import { StringDecoder } from "node:string_decoder";

/** A stream's lines as they complete: `push` each chunk, `end` when it ends; `onLine` gets each line without its `\n` (or `\r\n`). */
export const splitLines = (onLine: (line: string) => void) => {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  const emit = (line: string) => onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  return {
    push: (chunk: Buffer) => {
      pending += decoder.write(chunk);
      for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n")) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        emit(line);
      }
    },
    /** The last line, when the stream did not end it with `\n`. */
    end: () => {
      pending += decoder.end();
      if (pending !== "") emit(pending);
      pending = "";
    },
  };
};
