// The server's own console output (Next.js, libraries, and modules that write `console.*`, such as the reconciler's
// "[reconciler] settled=3 ..." lines) goes through the logger too, so stdout holds nothing but JSON lines a log pipeline
// can parse, scrubbed like every other line. A leading "[name]" becomes the line's `component`; a plain object first
// argument is taken as the line's fields, as pino takes them (`console.error({ req_id, err }, "request failed")`).
import { format } from "node:util";
import type { Logger } from "pino";
import { logger } from "./logger";

const LEVEL_OF = { debug: "debug", log: "info", info: "info", warn: "warn", error: "error" } as const;
type Method = keyof typeof LEVEL_OF;

const g = globalThis as unknown as { __consoleRestore?: () => void };

function isFields(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !(v instanceof Error) && Object.getPrototypeOf(v) === Object.prototype;
}

/** Route console.* through `log` (once per process; tests may install their own). Returns the undo. */
export function captureConsole(log: () => Logger = logger): () => void {
  g.__consoleRestore?.();
  const saved = Object.fromEntries(Object.keys(LEVEL_OF).map((m) => [m, console[m as Method]])) as Record<Method, (...a: unknown[]) => void>;
  for (const [method, level] of Object.entries(LEVEL_OF) as [Method, (typeof LEVEL_OF)[Method]][]) {
    console[method] = (...args: unknown[]) => {
      const fields: Record<string, unknown> = isFields(args[0]) ? (args.shift() as Record<string, unknown>) : {};
      const err = args.find((a): a is Error => a instanceof Error);
      let text = format(...args.filter((a) => a !== err));
      const component = /^\[([A-Za-z0-9 _.:-]{1,40})\]\s*/.exec(text);
      if (component) text = text.slice(component[0].length);
      log()[level]({ ...(component ? { component: component[1] } : {}), ...(err ? { err } : {}), ...fields }, text.trim() || (err?.message ?? ""));
    };
  }
  const restore = () => {
    for (const m of Object.keys(saved) as Method[]) console[m] = saved[m];
    g.__consoleRestore = undefined;
  };
  g.__consoleRestore = restore;
  return restore;
}
