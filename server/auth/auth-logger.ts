// next-auth's own logger prints, for every error, its code, a documentation link and the whole error object with its
// stack (about 1 KB). A session cookie that does not decode is such an error, on every request that carries one: any
// client can make the server write a kilobyte per request by sending a garbage cookie. What a client causes is logged
// as one short line (the code and the error's name and message, cut short); errors of our own making keep the stack.
import type { LoggerInstance } from "next-auth";

/** Codes a client's cookie alone produces: a session cookie that does not decode (read, sign-out, database session). */
const CLIENT_CAUSED = new Set(["JWT_SESSION_ERROR", "SIGNOUT_ERROR", "SESSION_ERROR"]);
const MAX_LINE = 160;

function errorOf(metadata: unknown): { name: string; message: string; stack?: string } {
  const e = metadata instanceof Error ? metadata : (metadata as { error?: unknown } | null)?.error;
  if (e instanceof Error) return { name: e.name, message: e.message, stack: e.stack };
  const message = (metadata as { message?: unknown } | null)?.message;
  return { name: "Error", message: typeof message === "string" ? message : String(metadata) };
}

/** One line, printable characters only (a message may quote client input), at most MAX_LINE characters. */
function oneLine(text: string): string {
  const flat = text.replace(/[^\x20-\x7e]+/g, " ").trim();
  return flat.length > MAX_LINE ? `${flat.slice(0, MAX_LINE - 1)}…` : flat;
}

export const authLogger: Partial<LoggerInstance> = {
  error(code, metadata) {
    const e = errorOf(metadata);
    if (CLIENT_CAUSED.has(code)) console.warn(oneLine(`[next-auth] ${code}: ${e.name}: ${e.message} (a client's session cookie did not decode; ignored)`));
    else console.error(`[next-auth] ${code}: ${e.name}: ${e.message}`, e.stack ? `\n${e.stack}` : "");
  },
  warn(code) {
    console.warn(`[next-auth] warning ${code}`);
  },
  debug() {},
};
