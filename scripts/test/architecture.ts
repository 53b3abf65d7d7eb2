// The layering rules of ARCHITECTURE.md as code: read every import of the repository's TypeScript and report the
// ones that break a rule, naming the file, the import and the rule. Used by architecture.test.ts.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { PAYMENT_STATES } from "../../server/contracts/payment-status";

export type Import = { spec: string; /** Repo-relative path of the imported file, or null for a package. */ target: string | null };
export type SourceFile = { file: string; imports: Import[] };
export type Violation = { rule: string; file: string; import: string };

const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const SKIP_DIRS = new Set(["node_modules", ".git", ".next", ".next-test", ".data", "test-results", "playwright-report", "bench-results", "generated"]);
// Static imports and re-exports, side-effect imports, dynamic imports and vi.mock paths.
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^"'`;]*?from\s*["']([^"']+)["']|(?:^|[\s;])import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)|\bvi\.mock\(\s*["']([^"']+)["']/gm;

function listSources(root: string, dir = ""): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (entry.name.startsWith(".") && entry.name !== ".ci") continue;
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) out.push(...listSources(root, rel));
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(rel);
  }
  return out;
}

function resolveTarget(root: string, from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith(".")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null;
  for (const suffix of ["", ".ts", ".tsx", ".mjs", "/index.ts", "/index.tsx"]) {
    const candidate = base + suffix;
    const abs = path.join(root, candidate);
    if (fs.existsSync(abs) && fs.statSync(abs).isFile()) return candidate;
  }
  // Generated or missing files (the Prisma client before `prisma generate`) still count by their path.
  return base;
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/** Every source file of the repository with its imports (comments stripped first). */
export function readImportGraph(root: string): SourceFile[] {
  return listSources(root).map((file) => {
    const text = withoutComments(fs.readFileSync(path.join(root, file), "utf8"));
    const imports: Import[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? m[4]!;
      imports.push({ spec, target: resolveTarget(root, file, spec) });
    }
    return { file, imports };
  });
}

/** Tests, test helpers, seeds, scripts and e2e specs: outside the production import graph. */
export function isTestOrTooling(file: string): boolean {
  return (
    /\.test\.tsx?$/.test(file) ||
    // A rail's conformance kit: how its clients pay, for the shared battery (server/testing/rail-conformance.ts).
    file.endsWith(".test-kit.ts") ||
    file.startsWith("server/testing/") ||
    file.startsWith("server/market/test/") ||
    file.startsWith("scripts/") ||
    file.startsWith("e2e/") ||
    file.startsWith("prisma/") ||
    file.startsWith("examples/") ||
    !file.includes("/") // root config files (next.config.ts, playwright.config.ts, ...)
  );
}

/** The adapters between the web and the domain: they may know Next.js, tRPC and next-auth. */
const ADAPTERS = ["server/http/", "server/trpc/", "server/auth/", "server/db/"];
/** The request pipelines build Responses, so they may use server/http's request context and response helpers. */
const HTTP_PIPELINES = ["server/gateway/", "server/market/upstream/", "server/mcp/"];

export function isDomainModule(file: string): boolean {
  return file.startsWith("server/") && !isTestOrTooling(file) && !ADAPTERS.some((a) => file.startsWith(a));
}

const FRAMEWORK = /^(next|next\/.*|next-auth(\/.*)?|@trpc\/.*|react|react-dom|react\/.*|@tanstack\/react-query)$/;
const RAILS_DIR = "server/payments/rails/";

function railOf(file: string): string | null {
  if (!file.startsWith(RAILS_DIR)) return null;
  const rest = file.slice(RAILS_DIR.length);
  return rest.includes("/") ? rest.split("/")[0]! : null;
}

const OPERATIONS_DIR = "server/market/operations/";
/** The test-only fixture operation is held to an operation folder's rules too. */
const FIXTURE_OPERATION_DIR = "server/testing/fixture-operation/";

/** The folder of a data operation a file belongs to (`server/market/operations/<name>/`), or null. */
function operationFolderOf(file: string): string | null {
  if (file.startsWith(FIXTURE_OPERATION_DIR)) return FIXTURE_OPERATION_DIR;
  if (!file.startsWith(OPERATIONS_DIR)) return null;
  const rest = file.slice(OPERATIONS_DIR.length);
  return rest.includes("/") ? `${OPERATIONS_DIR}${rest.split("/")[0]}/` : null;
}

/** What an operation folder builds on: the shared market floors, the contracts, the platform's lowest floors. */
const OPERATION_MAY_IMPORT = [
  `${OPERATIONS_DIR}operation.ts`,
  `${OPERATIONS_DIR}services.ts`,
  "server/market/lib/",
  "server/market/providers/",
  "server/market/archive/",
  "server/market/artifacts/",
  "server/contracts/",
  "server/errors.ts",
  "server/validation.ts",
  "server/env.ts",
  "server/lib/",
  "server/db/",
];
/** The shared market floors below the operations. */
const MARKET_SHARED = ["server/market/lib/", "server/market/providers/", "server/market/archive/", "server/market/artifacts/"];
const REGISTRY_LISTS = [`${OPERATIONS_DIR}registry.ts`, `${OPERATIONS_DIR}registered.ts`];

/**
 * The floors of the production code, lowest first: a file imports only rooms on lower floors (and its own room). A room
 * is a folder of server/ (or a file directly in it) or app/. ARCHITECTURE.md ("Dependency direction") draws the same.
 */
export const FLOORS: string[][] = [
  ["server/contracts", "server/errors.ts", "server/env.ts"],
  ["server/lib", "server/validation.ts"],
  ["server/upstream-auth", "server/db", "server/chain"],
  ["server/market", "server/audit", "server/rate-limits"],
  ["server/catalog"],
  ["server/settings", "server/identity", "server/team"],
  ["server/billing", "server/budgets"],
  ["server/payments"],
  ["server/analytics", "server/discovery", "server/receipts", "server/observability", "server/approvals", "server/wallet-caps"],
  ["server/http", "server/controls"],
  ["server/gateway", "server/auth"],
  ["server/mcp"],
  ["server/events"],
  ["server/payment-reports", "server/price-changes", "server/alerts"],
  ["server/webhooks"],
  ["server/trpc", "server/startup.ts"],
  ["app"],
];

/** The imports that climb back up, each with why it stays; at most seven (architecture.test.ts holds the bound). */
export const ALLOWED_CLIMBS: { from: string; to: string; why: string }[] = [
  {
    from: "server/market",
    to: "server/http",
    why: "market/upstream is a request pipeline answering the gateway's signed calls with server/http's responses; the rest of market is the data floor below discovery",
  },
  {
    from: "server/billing",
    to: "server/payments",
    why: "the console's money per customer (customers.queries.ts) counts paid payments through payment-state.ts, the one place SQL may name a state; payments' charge statements credit a purchase through billing's statement in the same transaction",
  },
  {
    from: "server/payments",
    to: "server/observability",
    why: "the reconciler reports its runs to the metrics registry, whose database gauges read payment states through payment-state.ts",
  },
];

/** The room a file stands in: `server/<folder>`, a file directly under server/, or `app`; null for tests and tooling. */
export function roomOf(file: string): string | null {
  if (isTestOrTooling(file)) return null;
  if (file.startsWith("app/")) return "app";
  const parts = file.split("/");
  if (parts[0] !== "server") return null;
  return parts.length > 2 ? `server/${parts[1]}` : file;
}

const FLOOR_OF = new Map(FLOORS.flatMap((rooms, floor) => rooms.map((room) => [room, floor] as const)));

/** Every room of the graph that FLOORS does not place. */
export function roomsWithoutFloor(graph: SourceFile[]): string[] {
  return [...new Set(graph.map((f) => roomOf(f.file)).filter((r): r is string => !!r && !FLOOR_OF.has(r)))].sort();
}

type Rule = { name: string; check: (f: SourceFile, i: Import) => boolean };

/** Each rule says which imports it forbids; ARCHITECTURE.md ("Checked rules") lists the same ones. */
export const RULES: Rule[] = [
  {
    name: "only *.queries.ts files import the database client (server/db)",
    check: (f, i) => !!i.target?.startsWith("server/db/") && !f.file.startsWith("server/db/") && !f.file.endsWith(".queries.ts") && !isTestOrTooling(f.file),
  },
  {
    name: "domain modules never import Next.js, React, tRPC, next-auth or app/",
    check: (f, i) => isDomainModule(f.file) && (FRAMEWORK.test(i.spec) || !!i.target?.startsWith("app/")),
  },
  {
    name: "domain modules never import the web adapters (server/http, server/trpc, server/auth); the request pipelines may use server/http",
    check: (f, i) => {
      if (!isDomainModule(f.file) || !i.target) return false;
      if (i.target.startsWith("server/trpc/") || i.target.startsWith("server/auth/")) return true;
      return i.target.startsWith("server/http/") && !HTTP_PIPELINES.some((p) => f.file.startsWith(p));
    },
  },
  {
    name: "server/contracts imports nothing but zod and itself",
    check: (f, i) =>
      f.file.startsWith("server/contracts/") &&
      !isTestOrTooling(f.file) &&
      !(i.spec === "zod" || i.spec.startsWith("zod/") || !!i.target?.startsWith("server/contracts/")),
  },
  {
    // Next.js routes are files under app/: a rail's own endpoints (the card checkout's page, payUrl, its webhook) are
    // thin route files there, over the rail's folder. Everything else reaches a rail through the registry.
    name: "only the rails registry (server/payments/rails/index.ts) and a rail's own routes under app/ import a rail's folder",
    check: (f, i) => {
      const rail = i.target ? railOf(i.target) : null;
      if (!rail) return false;
      return f.file !== `${RAILS_DIR}index.ts` && railOf(f.file) !== rail && !f.file.startsWith("app/") && !isTestOrTooling(f.file);
    },
  },
  {
    name: "only the rails registry and test helpers import the registry's list (server/payments/rails/registry.ts): no production code adds a rail",
    check: (f, i) => i.target === `${RAILS_DIR}registry.ts` && f.file !== `${RAILS_DIR}index.ts` && !isTestOrTooling(f.file),
  },
  {
    name: "production code never imports tests or test helpers (server/testing, *.test.ts)",
    check: (f, i) =>
      !isTestOrTooling(f.file) && !!i.target && (i.target.startsWith("server/testing/") || /\.test\.tsx?$/.test(i.target) || i.target.endsWith(".test-kit.ts")),
  },
  {
    name: "app/ never touches the database (server/db or *.queries.ts)",
    check: (f, i) =>
      f.file.startsWith("app/") && !isTestOrTooling(f.file) && !!i.target && (i.target.startsWith("server/db/") || i.target.endsWith(".queries.ts")),
  },
  {
    // Discovery (OpenAPI, manifest, guide, llms.txt, MCP tools, x402 discovery, search) reads the catalog: one floor up.
    name: "server/catalog never imports server/discovery (discovery reads the catalog, never the other way)",
    check: (f, i) => f.file.startsWith("server/catalog/") && !isTestOrTooling(f.file) && !!i.target?.startsWith("server/discovery/"),
  },
  {
    // The gateway's quote, the MCP server and the HTTP discovery helpers build on discovery's documents, not the reverse.
    name: "server/discovery imports no request pipeline or web adapter (server/gateway, server/mcp, server/http)",
    check: (f, i) => f.file.startsWith("server/discovery/") && !isTestOrTooling(f.file) && !!i.target && /^server\/(gateway|mcp|http)\//.test(i.target),
  },
  {
    // An operation is one folder over shared floors: it never reaches another operation, the registry, the gateway,
    // discovery, the catalog, payments or a web adapter. Its tests may (they are outside the production graph).
    name: "an operation folder imports only itself, operation.ts, services.ts, the shared market floors (lib, providers, archive, artifacts), server/contracts and the platform's lowest floors (errors, validation, env, lib, db)",
    check: (f, i) => {
      const own = operationFolderOf(f.file);
      if (!own || !i.target || /\.test\.tsx?$/.test(f.file) || f.file.endsWith(".test-kit.ts")) return false;
      return !i.target.startsWith(own) && !OPERATION_MAY_IMPORT.some((p) => i.target!.startsWith(p));
    },
  },
  {
    // So OpenAPI, the console or a client may import it: a contract is zod schemas and words.
    name: "an operation's contract.ts imports nothing but zod and server/contracts",
    check: (f, i) =>
      !!operationFolderOf(f.file) &&
      f.file.endsWith("/contract.ts") &&
      !(i.spec === "zod" || i.spec.startsWith("zod/") || !!i.target?.startsWith("server/contracts/")),
  },
  {
    name: "only the operations registry (server/market/operations/index.ts) imports registry.ts and registered.ts (test helpers aside): no production code adds an operation",
    check: (f, i) => !!i.target && REGISTRY_LISTS.includes(i.target) && f.file !== `${OPERATIONS_DIR}index.ts` && !isTestOrTooling(f.file),
  },
  {
    // Everything else asks the registry (index.ts); an operation's contract.ts, zod only, may be read by anyone.
    name: "only the registry's list (registry.ts) imports an operation's folder, apart from its contract.ts",
    check: (f, i) => {
      const target = i.target ? operationFolderOf(i.target) : null;
      if (!target || target === FIXTURE_OPERATION_DIR || i.target!.endsWith("/contract.ts")) return false;
      return f.file !== `${OPERATIONS_DIR}registry.ts` && operationFolderOf(f.file) !== target && !isTestOrTooling(f.file);
    },
  },
  {
    name: "the shared market floors (server/market/lib, providers, archive, artifacts) never import the operations",
    check: (f, i) => MARKET_SHARED.some((p) => f.file.startsWith(p)) && !isTestOrTooling(f.file) && !!i.target?.startsWith(OPERATIONS_DIR),
  },
  {
    // One floor below everything that asks it (the paid pipeline, identity, sign-in): it can never import what asks it.
    name: "server/rate-limits imports only settings (server/env), errors (server/errors), the database client (its queries) and itself",
    check: (f, i) =>
      f.file.startsWith("server/rate-limits/") &&
      !isTestOrTooling(f.file) &&
      !!i.target &&
      !["server/env.ts", "server/errors.ts"].includes(i.target) &&
      !i.target.startsWith("server/db/") &&
      !i.target.startsWith("server/rate-limits/"),
  },
];

/** The floor rule, kept apart from RULES so each of those keeps naming one kind of wrong import. */
export const FLOOR_RULE: Rule = {
  // FLOORS: nothing low imports something high (or a neighbour on its own floor), the climbs ALLOWED_CLIMBS lists aside.
  name: "a room imports only rooms on lower floors (FLOORS in scripts/test/architecture.ts), apart from ALLOWED_CLIMBS",
  check: (f, i) => {
    const from = roomOf(f.file);
    const to = i.target ? roomOf(i.target) : null;
    if (!from || !to || from === to || !FLOOR_OF.has(from) || !FLOOR_OF.has(to)) return false;
    return FLOOR_OF.get(to)! >= FLOOR_OF.get(from)! && !ALLOWED_CLIMBS.some((c) => c.from === from && c.to === to);
  },
};

/** Imports that climb back up a floor without a place in ALLOWED_CLIMBS. */
export function findClimbs(graph: SourceFile[]): Violation[] {
  return findViolations(graph, [FLOOR_RULE]);
}

export function findViolations(graph: SourceFile[], rules: Rule[] = RULES): Violation[] {
  const out: Violation[] = [];
  for (const f of graph) for (const i of f.imports) for (const r of rules) if (r.check(f, i)) out.push({ rule: r.name, file: f.file, import: i.spec });
  return out;
}

/** A rule over what a file says rather than what it imports; `check` returns the offending snippets. */
export type TextRule = { name: string; check: (file: string, text: string) => string[] };
export type TextSource = { file: string; text: string };

/** Every source file's text, comments stripped. */
export function readSourceTexts(root: string): TextSource[] {
  return listSources(root).map((file) => ({ file, text: withoutComments(fs.readFileSync(path.join(root, file), "utf8")) }));
}

/** Where SQL may name a payment state: the state module (which builds every fragment) and the payments queries. */
const STATE_SQL_HOMES = new Set(["server/payments/payment-state.ts", "server/payments/payments.queries.ts"]);
// SQL quotes its literals with single quotes; the code base's own strings use double quotes (prettier).
const STATE_LITERAL = new RegExp(`'(?:${PAYMENT_STATES.join("|")})'`, "g");

// A payment's new state, in SQL (`update payments [p] set status = ...`) or through Prisma (`payment.update[Many]({ ...
// data: { status: ... } })`), must be a transition's (`X.set`, `X.to`), never a literal, a fragment or a parameter.
const SQL_STATE_CHANGE =
  /update\s+payments(?:\s+(?!set\b)\w+)?\s+set\s+status\s*=\s*(?=\S)(?!\$\{\s*[\w.[\]]+\.set\s*\}|case when (?:\$\d+|:\w+)::boolean then \$\{\s*[\w.[\]]+\.set\s*\} else \$\{\s*[\w.[\]]+\.set\s*\} end)[^,\n]*/gi;
const PRISMA_STATE_CHANGE = /\.payment\.update(?:Many)?\(\s*\{[\s\S]*?data:\s*\{[^}]*?\bstatus:\s*(?=\S)(?![\w.[\]]+\.to\b)[^,}\n]*/g;

export const TEXT_RULES: TextRule[] = [
  {
    name: "SQL names payment states only through server/payments/payment-state.ts (stateSql, statesSql, transition)",
    check: (file, text) => (isTestOrTooling(file) || STATE_SQL_HOMES.has(file) ? [] : [...text.matchAll(STATE_LITERAL)].map((m) => m[0])),
  },
  {
    name: "a payment's state changes only to a transition's target (`${X.set}` in SQL, `X.to` through Prisma: payment-state.ts transition())",
    check: (file, text) => (isTestOrTooling(file) ? [] : [...text.matchAll(SQL_STATE_CHANGE), ...text.matchAll(PRISMA_STATE_CHANGE)].map((m) => m[0].trim())),
  },
];

export function findTextViolations(sources: TextSource[], rules: TextRule[] = TEXT_RULES): Violation[] {
  const out: Violation[] = [];
  for (const s of sources) for (const r of rules) for (const found of r.check(s.file, s.text)) out.push({ rule: r.name, file: s.file, import: found });
  return out;
}

/** Production files (not tests, test helpers or tooling) under app/ and server/: what the size rules measure. */
export function isMeasured(file: string): boolean {
  return (file.startsWith("app/") || file.startsWith("server/")) && !isTestOrTooling(file);
}

export const MAX_FILE_LINES = 350;
export const MAX_FUNCTION_LINES = 80;

export function lineCount(text: string): number {
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** The production files longer than MAX_FILE_LINES, with their lengths. */
export function findLongFiles(sources: TextSource[], max = MAX_FILE_LINES): { file: string; lines: number }[] {
  return sources
    .filter((s) => isMeasured(s.file))
    .map((s) => ({ file: s.file, lines: lineCount(s.text) }))
    .filter((f) => f.lines > max);
}

export type LongFunction = { file: string; name: string; lines: number };

function functionName(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isFunctionExpression(node)) && node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (ts.isGetAccessor(node) || ts.isSetAccessor(node)) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) return `${functionName(parent)}(callback)`;
  if (parent && ts.isExportAssignment(parent)) return "default";
  return "(anonymous)";
}

/** Every function, method or arrow function of a file (read with the TypeScript compiler) longer than `max` lines. */
export function findLongFunctions(file: string, text: string, max = MAX_FUNCTION_LINES): LongFunction[] {
  if (lineCount(text) <= max) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > max) out.push({ file, name: functionName(node), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}
