/**
 * What app.measure() watches inside the page over a block: its long tasks, its interactions (Event Timing) and its
 * frames. Both functions run in the page (page.evaluate), so they hold no imports and no closures.
 */

/** What the page saw over a block, as collected at its end. */
export interface PageMeasure {
  readonly longTasks: number;
  /** Σ (duration − 50) over the long tasks, ms. */
  readonly blocking: number;
  /** The longest interaction's duration, ms (Event Timing, rounded by the browser to 8 ms); 0 without one of 16 ms or more. */
  readonly interaction: number;
  /** Frames the display's rate, measured from requestAnimationFrame itself, would have drawn over the block, minus those drawn. */
  readonly droppedFrames: number;
}

/** The page state the functions share, under a property named by the block's token. */
interface Watch {
  /** When the block's watch began (the third frame came), 0 until then. */
  start: number;
  readonly frames: number[];
  readonly observers: PerformanceObserver[];
  readonly longTasks: PerformanceEntry[];
  readonly events: PerformanceEventTiming[];
  stopped: boolean;
}

/**
 * Starts watching: a PerformanceObserver of long tasks and of events of 16 ms or more (the least Event Timing reports),
 * and a requestAnimationFrame loop noting each frame's time. Resolves once three frames have come, so that the display's
 * rate is known and the loop runs before the block starts; rejects with a message when none comes in `frameWaitMs`.
 */
export function watchPage([token, frameWaitMs]: readonly [string, number]): Promise<void> {
  const watch: Watch = { start: 0, frames: [], observers: [], longTasks: [], events: [], stopped: false };
  Object.defineProperty(window, token, { value: watch, configurable: true });
  const long = new PerformanceObserver((list) => watch.longTasks.push(...list.getEntries()));
  long.observe({ type: "longtask" });
  const event = new PerformanceObserver((list) => watch.events.push(...(list.getEntries() as PerformanceEventTiming[])));
  event.observe({ type: "event", durationThreshold: 16 } as PerformanceObserverInit);
  watch.observers.push(long, event);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the page drew ${String(watch.frames.length)} frames in ${String(frameWaitMs)} ms`)),
      frameWaitMs,
    );
    const frame = (at: number) => {
      if (watch.stopped) return;
      watch.frames.push(at);
      if (watch.frames.length === 3) {
        clearTimeout(timer);
        watch.start = performance.now();
        resolve();
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** Stops the watch of `token`, if the page holds one: its observers and its frame loop. */
export function stopWatch(token: string): void {
  const watch = (window as unknown as Record<string, Watch | undefined>)[token];
  if (watch === undefined) return;
  watch.stopped = true;
  for (const observer of watch.observers) observer.disconnect();
  Reflect.deleteProperty(window, token);
}

/**
 * Stops watching and says what the page saw since watchPage resolved; undefined when the page holds no watch of `token`
 * (it navigated: a new document). Waits two frames first, so that the block's last interaction has its Event Timing entry.
 */
export async function collectPage(token: string): Promise<PageMeasure | undefined> {
  const watch = (window as unknown as Record<string, Watch | undefined>)[token];
  if (watch === undefined) return undefined;
  const end = performance.now();
  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
  await nextFrame();
  await nextFrame();
  watch.stopped = true;
  const [long, event] = watch.observers;
  watch.longTasks.push(...(long?.takeRecords() ?? []));
  watch.events.push(...((event?.takeRecords() ?? []) as PerformanceEventTiming[]));
  for (const observer of watch.observers) observer.disconnect();
  Reflect.deleteProperty(window, token);
  const within = (entry: PerformanceEntry) => entry.startTime >= watch.start && entry.startTime <= end;
  const longTasks = watch.longTasks.filter(within);
  const interactions = watch.events.filter((entry) => within(entry) && entry.interactionId > 0);
  // The display's frame interval: the median time between frames, which the block's long tasks stretch only a few of.
  const gaps = watch.frames.slice(1).map((at, index) => at - (watch.frames[index] as number));
  const interval = gaps.sort((a, b) => a - b)[Math.floor(gaps.length / 2)] as number;
  const drawn = watch.frames.filter((at) => at >= watch.start && at <= end).length;
  return {
    longTasks: longTasks.length,
    blocking: longTasks.reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0),
    interaction: Math.max(0, ...interactions.map((entry) => entry.duration)),
    droppedFrames: Math.max(0, Math.floor((end - watch.start) / interval) - drawn),
  };
}
