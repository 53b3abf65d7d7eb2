// The process's logger: pino, one JSON object per line on stdout (LOG_FORMAT=json, the default), or readable lines for
// people (LOG_FORMAT=pretty, the demo). LOG_LEVEL picks the level. Every line carries the service and the instance
// (host:pid), so lines from N instances behind a load balancer can be told apart. Messages, errors and known secret
// fields are scrubbed before they are written (redact.ts).
import os from "node:os";
import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";
import pinoPretty from "pino-pretty";
import { redactValue, REDACT_PATHS, scrubText, TOP_LEVEL_REDACT_PATHS } from "./redact";

const LEVELS = new Set(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

export const INSTANCE = `${os.hostname()}:${process.pid}`;

/** An Error as a log field: name, message and stack scrubbed, an AppError's code, the cause's message. */
function serializeError(e: unknown): Record<string, unknown> {
  if (!(e instanceof Error)) return { message: scrubText(String(e)) };
  const cause = (e as { cause?: unknown }).cause;
  return {
    type: e.name,
    message: scrubText(e.message),
    ...((e as { code?: unknown }).code !== undefined ? { code: String((e as { code?: unknown }).code) } : {}),
    stack: e.stack ? scrubText(e.stack) : undefined,
    ...(cause instanceof Error ? { cause: scrubText(cause.message) } : {}),
  };
}

function options(level: string): LoggerOptions {
  return {
    level: LEVELS.has(level) ? level : "info",
    base: { service: "storefront", instance: INSTANCE },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    messageKey: "msg",
    errorKey: "err",
    serializers: { err: serializeError },
    redact: { paths: REDACT_PATHS, censor: redactValue },
    hooks: {
      // The message (and printf-style arguments) is free text: scrub it like any other.
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === "string" ? scrubText(a) : a)) as Parameters<typeof method>);
      },
    },
  };
}

/** A logger writing to `destination` (tests capture lines this way). */
export function createLogger(destination: DestinationStream, level = "info"): Logger {
  return pino(options(level), destination);
}

function pretty(): DestinationStream {
  // In process and synchronous: no worker thread (pino transports resolve files at run time, which a bundle breaks).
  return pinoPretty({
    colorize: Boolean(process.stdout.isTTY),
    sync: true,
    translateTime: "SYS:HH:MM:ss.l",
    // An access line reads as one: "GET /api/v1/aggregates/AAPL 200 8.7 ms x402 pay_... charged", its other fields after.
    ignore: "pid,hostname,service,instance,method,route,path,status,duration_ms,user_agent",
    messageFormat: (log, key) =>
      log[key] === "request"
        ? [log.method, log.path, log.status, `${log.duration_ms} ms`, log.rail, log.payment_id, log.billing].filter((v) => v != null).join(" ")
        : String(log[key] ?? ""),
    singleLine: true,
  });
}

const g = globalThis as unknown as { __storefrontLogger?: Logger };

/**
 * The shared logger, made on first use from LOG_LEVEL and LOG_FORMAT. Kept on globalThis: Next.js bundles
 * instrumentation and route handlers apart, and both must write through the same one.
 */
export function logger(): Logger {
  if (!g.__storefrontLogger) {
    const level = process.env.LOG_LEVEL ?? "info";
    g.__storefrontLogger =
      process.env.LOG_FORMAT === "pretty" ? pino(options(level), pretty()) : pino(options(level), pino.destination({ dest: 1, sync: false }));
  }
  return g.__storefrontLogger;
}

// pino's redaction (@pinojs/redact 0.4) runs every value of a line through the wildcard paths' redactor, which parses
// each of its 42 paths again for each value: about 0.2 ms for an access line of 14 fields, on every request. A line
// whose fields are all strings and numbers can hold no nested secret, so it needs only the top-level keys.
const flatLoggers = new WeakMap<Logger, Logger>();

/**
 * The shared logger for lines of flat fields only (strings, numbers, booleans, null: the access line), made once per
 * logger: the same lines byte for byte, with only the top-level secret keys redacted (redact.ts). A field holding an
 * object or an error must go through `logger()`.
 */
export function flatLogger(): Logger {
  const log = logger();
  let flat = flatLoggers.get(log);
  if (!flat) flatLoggers.set(log, (flat = log.child({}, { redact: { paths: TOP_LEVEL_REDACT_PATHS, censor: redactValue } })));
  return flat;
}

/** Tests only: write through `l` instead (undefined: back to the default on next use). */
export function setLoggerForTests(l: Logger | undefined): void {
  g.__storefrontLogger = l;
}
