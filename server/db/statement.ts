// Named parameters for `sql()`: a statement is written with `:name` where a value goes and bound once, when its module
// loads, to the positional text PostgreSQL takes (`$1`, `$2`, ... numbered in the order the names first appear). The
// text is fixed from then on, so a named prepared statement keeps one text on every connection, and each call passes
// an object whose keys are the names: no list of values to keep in the order of the numbers. A cast (`::jsonb`) is
// not a name; a name is a letter or underscore followed by letters, digits or underscores, after a single colon.
import { sql } from "./client";

const NAME = /(?<![:\w]):([A-Za-z_]\w*)/g;

export type Statement<P extends Record<string, unknown>> = {
  /** The positional text, `$n` in place of each name. */
  readonly text: string;
  /** The names in the order of their numbers. */
  readonly names: readonly (keyof P & string)[];
  /** The prepared statement's name, if it is one. */
  readonly prepare?: string;
};

/** A statement with named parameters; `prepare` names it as a prepared statement (a fixed text on the paid path). */
export function statement<P extends Record<string, unknown>>(text: string, prepare?: string): Statement<P> {
  const names: string[] = [];
  const positional = text.replace(NAME, (_, name: string) => {
    const at = names.indexOf(name);
    if (at >= 0) return `$${at + 1}`;
    names.push(name);
    return `$${names.length}`;
  });
  if (/\$\d/.test(text)) throw new Error(`a statement with named parameters has a positional one too: ${text.slice(0, 80)}`);
  return { text: positional, names: names as (keyof P & string)[], prepare };
}

/**
 * The values of a statement's parameters, in the order of their numbers. A name without a value, or a value without a
 * name (a misspelt key), is an error: the money path's tests run every statement, so a slip fails them.
 */
export function bindValues<P extends Record<string, unknown>>(s: Statement<P>, params: P): unknown[] {
  const values = s.names.map((name) => {
    if (!(name in params)) throw new Error(`no value for :${name}`);
    return params[name];
  });
  if (Object.keys(params).length !== s.names.length) {
    const unknown = Object.keys(params).filter((k) => !s.names.includes(k as keyof P & string));
    throw new Error(`no parameter named :${unknown.join(", :")} in this statement`);
  }
  return values;
}

/** Run a statement with named parameters on the shared pool (`sql`). */
export function run<Row extends Record<string, unknown> = Record<string, unknown>, P extends Record<string, unknown> = Record<string, unknown>>(
  s: Statement<P>,
  params: P,
): Promise<{ rows: Row[]; rowCount: number }> {
  return sql<Row>(s.text, bindValues(s, params), s.prepare);
}
