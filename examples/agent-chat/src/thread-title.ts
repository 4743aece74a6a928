import { findThread } from "./projection.ts";
import type { TitleProvider } from "./provider.ts";
import type { Store } from "./store.ts";

/**
 * Asks the title provider for the title of a thread in its first turn, from its first message, and records it.
 * Does nothing without a title provider or after the first turn; rejects when the provider does.
 */
export async function titleThread(titles: TitleProvider | null, store: Store, threadId: string): Promise<void> {
  if (titles === null) return;
  const thread = findThread(store.sync(), threadId);
  const first = thread?.messages[0];
  if (thread?.turns.length !== 1 || first === undefined) return;
  const title = await titles.title(first.text);
  store.record({ type: "thread.titled", threadId, title });
}
