// A write made off the response path for many callers at once: items join a queue that one call of `write` takes for
// everyone waiting, a moment later (at most MAX_BATCH a call). A write the database refused keeps its items and is
// tried again with a growing pause (the rails that use it hold leases that outlast a short outage). One queue per
// process and name, whichever bundle loaded the module. Used by the rails that capture off the response path (credits,
// x402-batch).

type Queue<T> = { pending: T[]; flushing: Promise<void> | null; timer: NodeJS.Timeout | null; failures: number };

export type BatchQueue<T> = {
  enqueue(item: T): void;
  /** Write every queued item now (tests, a pass that reads what was written, a graceful shutdown). */
  flush(): Promise<void>;
};

const MAX_BATCH = 500;

/** `name`: the queue's key on globalThis; `failed`: the log line's start for a refused batch of n items. */
export function batchQueue<T>(name: string, write: (batch: T[]) => Promise<unknown>, failed: (n: number) => string): BatchQueue<T> {
  const store = globalThis as unknown as Record<string, Queue<T> | undefined>;
  const q: Queue<T> = (store[name] ??= { pending: [], flushing: null, timer: null, failures: 0 });

  async function flushOnce(): Promise<void> {
    const batch = q.pending.splice(0, MAX_BATCH);
    if (!batch.length) return;
    try {
      await write(batch);
      q.failures = 0;
    } catch (e) {
      q.pending.unshift(...batch);
      q.failures++;
      console.error(failed(batch.length), e instanceof Error ? e.message : e);
    }
  }

  function schedule(delayMs: number): void {
    if (q.timer || q.flushing) return;
    q.timer = setTimeout(() => {
      q.timer = null;
      q.flushing = flushOnce().finally(() => {
        q.flushing = null;
        if (q.pending.length) schedule(q.failures ? Math.min(5_000, 100 * 2 ** q.failures) : 0);
      });
    }, delayMs);
    q.timer.unref?.();
  }

  return {
    enqueue(item) {
      q.pending.push(item);
      schedule(0);
    },
    async flush() {
      if (q.timer) {
        clearTimeout(q.timer);
        q.timer = null;
      }
      while (q.flushing || q.pending.length) {
        if (q.flushing) await q.flushing;
        else {
          q.flushing = flushOnce().finally(() => (q.flushing = null));
          await q.flushing;
          if (q.failures) break;
        }
      }
    },
  };
}
