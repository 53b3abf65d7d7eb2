// The set-up every background loop of an instance shares (the reconciler, the alert checks, the webhook worker): a pass runs after a
// first delay, then again a delay after each pass ends (never two at once), on a timer that never keeps the process
// alive; `stop` ends the loop and waits for a pass under way. A pass handles its own errors; one that repeats within
// itself (a batch at a time) asks `stopped()` between batches.

export type BackgroundLoop = { stop: () => Promise<void> };

export function startBackgroundLoop(pass: (stopped: () => boolean) => Promise<void>, delays: { firstMs: number; nextMs: () => number }): BackgroundLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass(() => stopped).finally(() => schedule(delays.nextMs()));
    }, ms);
    timer.unref();
  };
  schedule(delays.firstMs);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
