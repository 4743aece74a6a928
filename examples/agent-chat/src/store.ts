import type { EventLog } from "./event-log.ts";
import { stamp, type ChatEvent, type NewChatEvent } from "./events.ts";
import { emptyState, reduce, type State } from "./projection.ts";

export type StoreListener = (event: ChatEvent, state: State) => void;

/** The projection of the event log, kept current with what any process appends. */
export class Store {
  readonly #log: EventLog;
  readonly #listeners = new Set<StoreListener>();
  #state: State = emptyState;

  constructor(log: EventLog) {
    this.#log = log;
  }

  get state(): State {
    return this.#state;
  }

  /** Applies the events appended to the log since the last sync, by this process or another. */
  sync(): State {
    for (const event of this.#log.readNew()) {
      this.#state = reduce(this.#state, event);
      for (const listener of this.#listeners) listener(event, this.#state);
    }
    return this.#state;
  }

  record(event: NewChatEvent): void {
    this.#log.append(stamp(event));
    this.sync();
  }

  subscribe(listener: StoreListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
