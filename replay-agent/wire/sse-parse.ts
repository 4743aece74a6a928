/** One server-sent event as read off the wire: its `event:` name, if any, and its data lines joined by newlines. */
export interface ParsedSseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/** The event one blank-line-terminated block describes; comments, `id:` and `retry:` are dropped, and a block without data is no event. */
const parseBlock = (block: string): ParsedSseEvent | undefined => {
  let event: string | undefined;
  const data: Array<string> = [];
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  return data.length === 0 ? undefined : { event, data: data.join("\n") };
};

/**
 * Splits an event stream into events as its text arrives, in any chunking: `push` returns the
 * events a chunk completes and keeps the partial one until its blank line. An event cut off by
 * the end of the stream is dropped, as the SSE spec says.
 */
export const makeSseParser = () => {
  let buffer = "";
  return {
    push: (text: string): ReadonlyArray<ParsedSseEvent> => {
      buffer += text;
      // A trailing "\r" may be the first half of "\r\n": keep it until the next chunk says.
      const cut = buffer.endsWith("\r") ? buffer.length - 1 : buffer.length;
      const complete = buffer.slice(0, cut).replace(/\r\n?/g, "\n");
      const end = complete.lastIndexOf("\n\n");
      if (end === -1) return [];
      buffer = complete.slice(end + 2) + buffer.slice(cut);
      return complete
        .slice(0, end)
        .split("\n\n")
        .flatMap((block) => {
          const event = parseBlock(block);
          return event === undefined ? [] : [event];
        });
    },
  };
};
