import type { AppModel } from "./app-model.ts";
import { exampleTurn } from "./example-transcript.ts";
import type { FoundSdk } from "./manifests.ts";
import type { ProviderChoice } from "./provider-choice.ts";
import type { ProviderLines } from "./templates.ts";
import { exampleFile, transcriptFile } from "./write.ts";

/** The other SDKs as a list: `@anthropic-ai/sdk (package.json), ollama (Python, requirements.txt)`. */
const listed = (others: ReadonlyArray<FoundSdk>) =>
  others.map((found) => `${found.sdk.name} (${found.sdk.ecosystem === "python" ? "Python, " : ""}${found.file})`).join(", ");

/** The config's provider lines for `choice`, with the comment naming the SDKs it leaves alone. */
export function providerConfigLines(choice: ProviderChoice): ProviderLines {
  return {
    variables: choice.variables,
    why: choice.variablesWhy,
    route: choice.route,
    others:
      choice.others.length === 0
        ? undefined
        : `${choice.lead}; these lines leave ${listed(choice.others)} alone. ` +
          'A test that calls several names a transcript for each (test.use({ transcript: { chat: "chat.ndjson", title: "title.ndjson" } })) ' +
          "and points each SDK at its own agent with {replay.<name>} in provider (docs/config.md#provider).",
  };
}

/** The model line init prints: the one the app's source names, or why the example asks for the provider's default. */
function modelLine(model: AppModel): string {
  if (model.kind === "found") return `model: ${model.model} (named in ${model.file})`;
  if (model.kind === "several") return `model: the default of replay-agent new (the app's source names ${model.models.join(", ")})`;
  return "model: the default of replay-agent new (the app's source names no model id)";
}

/** What init prints of the model provider, one line a choice with its reason. */
export function providerDetected(choice: ProviderChoice, model: AppModel): string[] {
  const names = Object.keys(choice.variables);
  return [
    `model provider: ${choice.caller} (${choice.from})${choice.others.length === 0 ? "" : `; also ${listed(choice.others)}`}`,
    ...(names.length === 0 ? [] : [`provider: ${names.join(", ")} (${choice.variablesWhy})`]),
    ...(choice.route === undefined ? [] : [`route: true (${choice.route})`]),
    modelLine(model),
  ];
}

/** What the user must know or do about the model provider and the example transcript. */
export function providerNotes(choice: ProviderChoice, model: AppModel): string[] {
  const asked =
    model.kind === "found"
      ? `the model ${model.model}`
      : "the default model of replay-agent new: run the command on its first line again with --model <the app's model>" +
        (model.kind === "several" ? ` (one of ${model.models.join(", ")})` : "");
  return [
    `${transcriptFile} answers the app's ${choice.caller} call when the app asks ${asked} about the user message ${JSON.stringify(exampleTurn.user)} (provider ${choice.transcript}, written by replay-agent new). ` +
      `The second test of ${exampleFile} types that message into the page's first text box and presses Enter: change its steps if the app takes a message otherwise, since a transcript left unplayed fails the test.`,
    ...(choice.todo === undefined ? [] : [choice.todo]),
  ];
}
