/** The part of an HTTP response a wire format writes to; the HTTP transport adapts node's ServerResponse to it. */
export interface HttpResponseWriter {
  readonly headersSent: boolean;
  writeHead(status: number, headers: Readonly<Record<string, string>>): void;
  /** Sends the head written with writeHead now, before any body. */
  flushHeaders(): void;
  /** Writes `chunk`; calls `written`, if given, once the connection has taken it or has closed. */
  write(chunk: string | Uint8Array, written?: () => void): void;
  end(text?: string): void;
  /** Drops the connection without ending the response. */
  destroy(): void;
  /** Calls `closed` once the connection has closed (at once if it has); returns what stops listening. */
  onClose(closed: () => void): () => void;
}
