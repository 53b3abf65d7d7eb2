// The README's runnable examples as a reader runs them (`npx tsx examples/...`), for the specs that check them.
import { spawn } from "node:child_process";

export type ExampleRun = { code: number | null; stdout: string; stderr: string };

export type RunningExample = {
  /** Resolves with the first match of `re` in what the example printed so far or prints next. */
  printed(re: RegExp): Promise<RegExpMatchArray>;
  /** Resolves when the example exits. */
  done: Promise<ExampleRun>;
  /** Ends it if it is still running (a spec that failed while it polls). */
  stop(): void;
};

export function startExample(file: string, env: Record<string, string>): RunningExample {
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", file], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const waiters: (() => void)[] = [];
  // Set when the process has exited and its output is complete: a pattern not printed by then never will be.
  let closed = false;
  child.stdout.on("data", (d) => {
    stdout += d;
    for (const w of waiters.splice(0)) w();
  });
  child.stderr.on("data", (d) => (stderr += d));
  const done = new Promise<ExampleRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      closed = true;
      resolve({ code, stdout, stderr });
      for (const w of waiters.splice(0)) w();
    });
  });
  const printed = (re: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const m = re.exec(stdout);
        if (m) resolve(m);
        else if (closed) reject(new Error(`${file} exited without printing ${re}:\n${stdout}\n${stderr}`));
        else waiters.push(check);
      };
      check();
    });
  return { printed, done, stop: () => void (closed || child.kill("SIGTERM")) };
}

export const runExample = (file: string, env: Record<string, string>) => startExample(file, env).done;
