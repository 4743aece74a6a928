import { db } from "../../../db.js";

export const dynamic = "force-dynamic";

/** The orders the worker priced, as server-sent events: one connection listening to PostgreSQL for each page. */
export async function GET(request) {
  const listener = await db.$client.connect();
  // Listening before the answer starts: the page reads the list when the stream opens, and hears of everything after.
  await listener.query("listen orders_done");
  const encoder = new TextEncoder();
  let close;
  const stream = new ReadableStream({
    start(controller) {
      const notify = ({ payload }) => controller.enqueue(encoder.encode(`data: ${payload}\n\n`));
      listener.on("notification", notify);
      controller.enqueue(encoder.encode(": connected\n\n"));
      // Once, whichever comes first: the page going away or the stream being cancelled.
      close = () => {
        close = undefined;
        listener.off("notification", notify);
        listener.release(true);
      };
    },
    cancel: () => close?.(),
  });
  request.signal.addEventListener("abort", () => close?.());
  return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}
