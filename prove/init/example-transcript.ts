import * as Effect from "effect/Effect";
import type { SdkProvider } from "./provider-sdks.ts";

/** The user message the example transcript expects, and the reply it streams. */
export const exampleTurn = { user: "Hello", reply: "Hello! This reply is replayed by the replay agent." } as const;

/**
 * The example transcript's text and the model it expects: one streamed reply of `provider` to
 * exampleTurn's user message, made by `replay-agent new` the way its command line makes one (`file`
 * names it in errors), asking for `model` (undefined: the provider's default). A Chat Completions one is written without the usage chunk, so that it
 * matches a request with or without `stream_options` (an app asks for it, or not).
 */
export async function exampleTranscript(
  provider: SdkProvider,
  file: string,
  model: string | undefined,
): Promise<{ readonly text: string; readonly model: string }> {
  const { descriptionFromFlags, newTranscript, quoteArgs } = await import("../../replay-agent/index.ts");
  const noUsage = provider === "openai-chat";
  const description = descriptionFromFlags({ provider, ...exampleTurn, model, "no-usage": noUsage });
  if (description instanceof Error) throw description;
  const args = [
    "--provider",
    provider,
    ...(model === undefined ? [] : ["--model", model]),
    "--user",
    exampleTurn.user,
    "--reply",
    exampleTurn.reply,
    ...(noUsage ? ["--no-usage"] : []),
  ];
  const made = await Effect.runPromise(newTranscript({ description }, `replay-agent new ${quoteArgs(args)}`, file));
  return { text: made.text, model: made.transcript.meta.model ?? "" };
}
