/** What `npm run bench` hands every scripts/bench/*.ts module's `run(ctx)`. */
export type BenchContext = {
  /** The built app, started with `next start` against a throwaway stack (demo seller on host 127.0.0.1). */
  baseUrl: string;
  /** The stack's settings: DATABASE_URL, APP_SECRET, MARKET_UPSTREAM_SECRET, and the chain's (RPC_URL, ...). */
  env: Record<string, string>;
  /** The app server's process id (`next start`): the cpu module reads its CPU time from /proc. */
  serverPid: number;
  log: (line: string) => void;
  /** Record one measured case: latencies in ms; p50/p99/rps are computed and printed by the runner. */
  record: (name: string, samplesMs: number[], extra?: Record<string, string | number>) => void;
  /** Record a ratio between two recorded cases (e.g. gateway vs direct p50), printed in the summary. */
  ratio: (name: string, numerator: string, denominator: string) => void;
};

export type BenchModule = { run: (ctx: BenchContext) => Promise<void> };
