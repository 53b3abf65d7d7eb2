// Text PostgreSQL cannot store: a NUL byte (U+0000 in text or jsonb) or bytes that are not UTF-8. A client can put one
// in a path, a query, a header value or a token's claims; whatever the layer that first hands it to a statement, the
// database refuses it, and that refusal is the client's 400, never a 500 or the database's own words.

/** SQLSTATE 22021 character_not_in_repertoire (invalid byte sequence), 22P05 untranslatable_character (jsonb \u0000). */
const CODES = new Set(["22021", "22P05"]);
const TEXT = /invalid byte sequence for encoding|unsupported Unicode escape sequence|\\u0000 cannot be converted to text/i;

/** Whether `err` (or an error it wraps) is PostgreSQL refusing text it cannot store. */
export function isInvalidTextError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 6; depth++) {
    const o = e as { code?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown; meta?: { code?: unknown } };
    if (CODES.has(String(o.code)) || CODES.has(String(o.originalCode)) || CODES.has(String(o.meta?.code))) return true;
    if (typeof o.message === "string" && TEXT.test(o.message)) return true;
    e = o.cause;
  }
  return false;
}

/** Whether a string holds a NUL or another C0 control other than tab, CR and LF: never a name, id, email or token. */
export function hasControlCharacters(s: string): boolean {
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s);
}
