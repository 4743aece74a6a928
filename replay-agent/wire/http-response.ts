/** The part of an HTTP response a wire format writes to; the HTTP transport adapts node's ServerResponse to it. */
export interface HttpResponseWriter {
  readonly headersSent: boolean;
  writeHead(status: number, headers: Readonly<Record<string, string>>): void;
  write(text: string): void;
  end(text?: string): void;
  /** Drops the connection without ending the response. */
  destroy(): void;
}
