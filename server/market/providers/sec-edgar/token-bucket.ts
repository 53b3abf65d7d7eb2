// A token bucket: `take()` resolves when a request may go out. Callers wait in arrival order (a queue of promises), so a
// burst of concurrent calls is spread out rather than racing for the same token. Time is injectable so tests never sleep.

export type TokenBucket = { take(): Promise<void> };

export type TokenBucketOptions = {
  /** Tokens added per second. */
  perSecond: number;
  /** Most tokens held at once (the burst). 1 spaces requests evenly: never more than `perSecond` in any second. */
  capacity?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
};

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createTokenBucket(opts: TokenBucketOptions): TokenBucket {
  const capacity = opts.capacity ?? 1;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? realSleep;
  let tokens = capacity;
  let last = now();
  let queue: Promise<void> = Promise.resolve();

  async function waitForToken(): Promise<void> {
    for (;;) {
      const t = now();
      tokens = Math.min(capacity, tokens + ((t - last) * opts.perSecond) / 1000);
      last = t;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await sleep(Math.ceil(((1 - tokens) * 1000) / opts.perSecond));
    }
  }

  return {
    take() {
      const turn = queue.then(waitForToken);
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
}
