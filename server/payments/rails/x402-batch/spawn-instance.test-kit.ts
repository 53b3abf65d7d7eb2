// Starts ./instance-child.test-kit.ts: another storefront process on the same database and chain (tests only).
import { spawn } from "node:child_process";
import path from "node:path";

export type ChildResult = { code: number | null; out: string };

/**
 * A child instance. With `barrier`, it loads everything, says it is ready, and sends its request only when told
 * (`go`): two children started this way race for real, whatever their start-up took.
 */
export function startInstance(env: Record<string, string>, opts: { barrier?: boolean } = {}) {
  const tsx = path.join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");
  const child = spawn(process.execPath, [tsx, "--conditions=react-server", path.join(import.meta.dirname, "instance-child.test-kit.ts")], {
    env: { ...process.env, NODE_ENV: "test", ...env, ...(opts.barrier ? { BATCH_BARRIER: "1" } : {}) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  child.stdout.on("data", (d) => {
    out += d;
    if (/^ready$/m.test(out)) markReady();
  });
  child.stderr.on("data", (d) => (out += d));
  const result = new Promise<ChildResult>((resolve) =>
    child.on("exit", (code) => {
      markReady();
      resolve({ code, out });
    }),
  );
  return { ready, go: () => child.stdin.write("go\n"), result };
}

export function spawnInstance(env: Record<string, string>): Promise<ChildResult> {
  const child = startInstance(env);
  child.go();
  return child.result;
}

/** Two children sending their requests at the same moment, once both are ready. */
export async function race(a: Record<string, string>, b: Record<string, string>): Promise<[ChildResult, ChildResult]> {
  const children = [startInstance(a, { barrier: true }), startInstance(b, { barrier: true })];
  await Promise.all(children.map((c) => c.ready));
  for (const c of children) c.go();
  return (await Promise.all(children.map((c) => c.result))) as [ChildResult, ChildResult];
}

/** The status and svc-billing a `call` child printed. */
export function answerOf(r: ChildResult): { status: number; billing: string } {
  const m = /^status (\d+) (.*)$/m.exec(r.out);
  if (!m) throw new Error(`the child did not answer (exit ${r.code}):\n${r.out}`);
  return { status: Number(m[1]), billing: m[2]! };
}
