// Parameters for the operation conformance battery, generated from an operation's contract: every path and query
// parameter with its zod schema and its JSON Schema bounds; the values just outside those bounds and other malformed
// values (classified by the contract's own schema, so only what it refuses is expected to be refused); and seeded
// random values, malformed or not, for the fuzzing rounds.
import { z } from "zod";
import type { OperationContract } from "../contracts/operations";
import type { OperationExample } from "../market/operations/operation";
import type { Rng } from "./random";

export type ParamSpec = { name: string; in: "path" | "query"; schema: z.ZodType; json: Record<string, unknown>; required: boolean };

/** The contract's parameters, path first, each with its bounds as OpenAPI states them (output JSON Schema). */
export function paramsOf(contract: OperationContract): ParamSpec[] {
  const out: ParamSpec[] = [];
  for (const [where, obj] of [
    ["path", contract.pathParams],
    ["query", contract.query],
  ] as const) {
    if (!obj) continue;
    for (const [name, schema] of Object.entries(obj.shape) as [string, z.ZodType][]) {
      const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Record<string, unknown>;
      out.push({ name, in: where, schema, json, required: where === "path" || !schema.safeParse(undefined).success });
    }
  }
  return out;
}

/** A request path and query for `example` with `overrides` (a value of undefined drops the parameter). */
export function requestFor(contract: OperationContract, example: OperationExample, overrides: Record<string, string | undefined> = {}): string {
  const values: Record<string, string | undefined> = { ...example.path, ...example.query, ...overrides };
  const path = contract.path.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? ""));
  const query = new URLSearchParams();
  const pathNames = new Set(Object.keys(contract.pathParams?.shape ?? {}));
  for (const [k, v] of Object.entries(values)) if (v !== undefined && !pathNames.has(k)) query.append(k, v);
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** Values at and just past a parameter's stated bounds, and strings no parameter of its kind should take. */
function candidatesFor(p: ParamSpec): string[] {
  const j = p.json;
  const out = new Set<string>(["", " ", "\u0000", "%00", "null", "undefined", "NaN", "Infinity", "-1", "1e3", "0x10", "+1", "1.0", "9".repeat(13)]);
  const [min, max, gt, lt] = [num(j.minimum), num(j.maximum), num(j.exclusiveMinimum), num(j.exclusiveMaximum)];
  const step = j.type === "integer" ? 1 : 0.5;
  for (const v of [min, max, gt, lt]) if (v !== undefined) for (const d of [-step, 0, step]) out.add(String(v + d));
  if (Array.isArray(j.enum))
    for (const e of j.enum)
      out
        .add(`${String(e)}x`)
        .add(String(e).toUpperCase())
        .add(` ${String(e)}`);
  const maxLength = num(j.maxLength);
  out
    .add("a".repeat((maxLength ?? 500) + 1))
    .add("lower-case")
    .add("UPPER_CASE")
    .add("a/b")
    .add("<script>")
    .add("ü");
  if (j.format === "date" || /date/.test(p.name)) for (const d of ["2023-02-30", "2024-13-01", "20240101", "2024-1-1", "0000-00-00"]) out.add(d);
  // A path parameter that is empty or a dot segment no longer addresses the operation (404): not a bound.
  return [...out].filter((v) => p.in === "query" || (v.trim() !== "" && v !== "." && v !== ".."));
}

/** Values on the bounds the contract accepts for `p` (least, greatest, every enum member): each must be served. */
export function onBounds(p: ParamSpec): string[] {
  const j = p.json;
  const values = Array.isArray(j.enum) ? j.enum.map(String) : [num(j.minimum), num(j.maximum)].filter((v) => v !== undefined).map(String);
  return values.filter((v) => p.schema.safeParse(v).success);
}

/** The values the contract refuses for `p`: each must answer 400 naming `p`. */
export function outOfBounds(p: ParamSpec): string[] {
  return candidatesFor(p).filter((v) => !p.schema.safeParse(v).success);
}

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
const ODD = ["\u0000", "\u200b", "é", "漢", "😀", "\n", "%", "..", "/", "\\", "'", '"', "&", "="];

/** One random value for `p`: within its bounds, just outside them, or arbitrary text, huge numbers and control bytes. */
export function fuzzValue(r: Rng, p: ParamSpec): string {
  const j = p.json;
  const lo = num(j.minimum) ?? num(j.exclusiveMinimum) ?? -1e6;
  const hi = num(j.maximum) ?? num(j.exclusiveMaximum) ?? 1e6;
  switch (r.int(8)) {
    case 0:
      return String(j.type === "integer" ? lo + r.int(Math.max(1, hi - lo + 1)) : lo + r.next() * (hi - lo));
    case 1:
      return Array.isArray(j.enum) ? String(r.pick(j.enum)) : String(lo + r.int(Math.max(1, Math.min(hi - lo + 1, 1e6))));
    case 2:
      return `${1990 + r.int(46)}-${String(1 + r.int(12)).padStart(2, "0")}-${String(1 + r.int(31)).padStart(2, "0")}`;
    case 3:
      return r.pick(["1e309", "-1e309", "9".repeat(400), "-9".repeat(30), String(Number.MAX_SAFE_INTEGER + 2), "0.0000000000001", "-0"]);
    case 4:
      return Array.from({ length: r.int(40) }, () => r.pick(PRINTABLE)).join("");
    case 5:
      return Array.from({ length: 1 + r.int(12) }, () => r.pick([...ODD, ...PRINTABLE])).join("");
    case 6:
      return "x".repeat(1000 + r.int(8000));
    default:
      return r.pick(candidatesFor(p));
  }
}
