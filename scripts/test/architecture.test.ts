// ARCHITECTURE.md's layering rules, checked on every `npm test`: a broken rule fails with the file, the import
// and the rule. The checker itself is tested on small made-up graphs, so a rule that can never fire is caught too.
import path from "node:path";
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import {
  ALLOWED_CLIMBS,
  findClimbs,
  findLongFiles,
  findLongFunctions,
  findTextViolations,
  findViolations,
  FLOOR_RULE,
  isMeasured,
  MAX_FILE_LINES,
  readImportGraph,
  readSourceTexts,
  roomsWithoutFloor,
  RULES,
  TEXT_RULES,
  type SourceFile,
} from "./architecture";
import { LONG_FUNCTIONS } from "./long-functions";

const root = path.resolve(import.meta.dirname, "../..");

describe("architecture rules", () => {
  const graph = readImportGraph(root);

  it("reads the whole tree (every layer present)", () => {
    const files = graph.map((f) => f.file);
    for (const prefix of ["app/", "server/http/", "server/trpc/", "server/payments/", "server/contracts/", "e2e/", "scripts/"])
      expect(
        files.some((f) => f.startsWith(prefix)),
        prefix,
      ).toBe(true);
    expect(graph.reduce((n, f) => n + f.imports.length, 0)).toBeGreaterThan(500);
  });

  it("holds for every import in the repository", () => {
    const violations = findViolations(graph).map((v) => `${v.file} imports "${v.import}": ${v.rule}`);
    expect(violations).toEqual([]);
  });

  it("holds for what every file says", () => {
    const violations = findTextViolations(readSourceTexts(root)).map((v) => `${v.file} says ${v.import}: ${v.rule}`);
    expect(violations).toEqual([]);
  });
});

describe("floors and sizes", () => {
  const graph = readImportGraph(root);

  it("places every room of server/ and app/ on a floor", () => {
    expect(roomsWithoutFloor(graph)).toEqual([]);
  });

  it("has no import that climbs back up a floor, the listed ones aside (at most seven, each with its reason)", () => {
    expect(findClimbs(graph).map((v) => `${v.file} imports "${v.import}"`)).toEqual([]);
    expect(ALLOWED_CLIMBS.length).toBeLessThanOrEqual(7);
    for (const c of ALLOWED_CLIMBS) expect(c.why.length, `${c.from} -> ${c.to}`).toBeGreaterThan(20);
  });

  it(`keeps every production file of app/ and server/ at most ${MAX_FILE_LINES} lines`, () => {
    expect(findLongFiles(readSourceTexts(root))).toEqual([]);
  });

  it("keeps every function at most 80 lines, the listed ones aside (each with why it is longer)", () => {
    const long = graph
      .filter((f) => isMeasured(f.file))
      .flatMap((f) => findLongFunctions(f.file, fs.readFileSync(path.join(root, f.file), "utf8")))
      .map((f) => `${f.file}:${f.name}`);
    expect(long.filter((key) => !(key in LONG_FUNCTIONS))).toEqual([]);
    // An entry whose function was split or is gone is taken off the list.
    expect(Object.keys(LONG_FUNCTIONS).filter((key) => !long.includes(key))).toEqual([]);
  });
});

describe("the checker", () => {
  const graph = (file: string, ...imports: [spec: string, target: string | null][]): SourceFile[] => [
    { file, imports: imports.map(([spec, target]) => ({ spec, target })) },
  ];
  const broken = (g: SourceFile[]) => findViolations(g).map((v) => v.rule);

  it("flags each kind of wrong import, naming the rule", () => {
    expect(broken(graph("server/payments/settle.ts", ["../db/client", "server/db/client.ts"]))).toEqual([RULES[0]!.name]);
    expect(broken(graph("server/gateway/x.ts", ["next/server", null]))).toEqual([RULES[1]!.name]);
    expect(broken(graph("server/catalog/x.ts", ["@trpc/server", null]))).toEqual([RULES[1]!.name]);
    expect(broken(graph("server/catalog/x.ts", ["../../app/page", "app/page.tsx"]))).toEqual([RULES[1]!.name]);
    expect(broken(graph("server/identity/x.ts", ["../http/respond", "server/http/respond.ts"]))).toEqual([RULES[2]!.name]);
    expect(broken(graph("server/identity/x.ts", ["../trpc/init", "server/trpc/init.ts"]))).toEqual([RULES[2]!.name]);
    expect(broken(graph("server/contracts/archive.ts", ["viem", null]))).toEqual([RULES[3]!.name]);
    expect(broken(graph("server/gateway/x.ts", ["../payments/rails/mpp/accept", "server/payments/rails/mpp/accept.ts"]))).toEqual([RULES[4]!.name]);
    expect(broken(graph("server/payments/rails/x402/offer.ts", ["../mpp/challenge", "server/payments/rails/mpp/challenge.ts"]))).toEqual([RULES[4]!.name]);
    expect(broken(graph("server/payments/x.ts", ["./rails/registry", "server/payments/rails/registry.ts"]))).toEqual([RULES[5]!.name]);
    expect(broken(graph("server/gateway/x.ts", ["../testing/gateway", "server/testing/gateway.ts"]))).toEqual([RULES[6]!.name]);
    expect(broken(graph("server/gateway/x.ts", ["../payments/rails/x402/conformance.test-kit", "server/payments/rails/x402/conformance.test-kit.ts"]))).toEqual(
      [RULES[4]!.name, RULES[6]!.name],
    );
    expect(broken(graph("app/page.tsx", ["@/server/payments/payments.queries", "server/payments/payments.queries.ts"]))).toEqual([RULES[7]!.name]);
    expect(broken(graph("server/catalog/x.ts", ["../discovery/openapi", "server/discovery/openapi.ts"]))).toEqual([RULES[8]!.name]);
    expect(broken(graph("server/discovery/x.ts", ["../gateway/quote", "server/gateway/quote.ts"]))).toEqual([RULES[9]!.name]);
    expect(broken(graph("server/discovery/x.ts", ["../mcp/free-tools", "server/mcp/free-tools.ts"]))).toEqual([RULES[9]!.name]);
    // An operation folder: never another operation, the registry, the gateway, discovery or payments.
    const op = "server/market/operations/fred-series/index.ts";
    expect(broken(graph(op, ["../basis/perps", "server/market/operations/basis/perps.ts"]))).toEqual([RULES[10]!.name, RULES[13]!.name]);
    expect(broken(graph(op, ["..", "server/market/operations/index.ts"]))).toEqual([RULES[10]!.name]);
    expect(broken(graph(op, ["../../../gateway/paid-call", "server/gateway/paid-call.ts"]))).toEqual([RULES[10]!.name]);
    expect(broken(graph(op, ["../../../discovery/openapi", "server/discovery/openapi.ts"]))).toEqual([RULES[10]!.name]);
    expect(broken(graph(op, ["../../../payments/rails", "server/payments/rails/index.ts"]))).toEqual([RULES[10]!.name]);
    expect(broken(graph("server/testing/fixture-operation/index.ts", ["../gateway", "server/testing/gateway.ts"]))).toEqual([RULES[10]!.name]);
    expect(broken(graph("server/market/operations/fred-series/contract.ts", ["../../../env", "server/env.ts"]))).toEqual([RULES[11]!.name]);
    expect(broken(graph("server/market/operations/fred-series/contract.ts", ["../../providers/types", "server/market/providers/types.ts"]))).toEqual([
      RULES[11]!.name,
    ]);
    expect(broken(graph("server/discovery/x.ts", ["../market/operations/registered", "server/market/operations/registered.ts"]))).toEqual([RULES[12]!.name]);
    expect(broken(graph("server/gateway/x.ts", ["../market/operations/registry", "server/market/operations/registry.ts"]))).toEqual([RULES[12]!.name]);
    expect(broken(graph("server/gateway/x.ts", ["../market/operations/basis", "server/market/operations/basis/index.ts"]))).toEqual([RULES[13]!.name]);
    expect(broken(graph("server/market/providers/x.ts", ["../operations", "server/market/operations/index.ts"]))).toEqual([RULES[14]!.name]);
    expect(broken(graph("server/market/archive/x.ts", ["../operations/operation", "server/market/operations/operation.ts"]))).toEqual([RULES[14]!.name]);
    expect(broken(graph("server/rate-limits/rate-limit.ts", ["../gateway/paid-call", "server/gateway/paid-call.ts"]))).toEqual([RULES[15]!.name]);
  });

  it("allows what the rules allow", () => {
    expect(broken(graph("server/payments/payments.queries.ts", ["../db/client", "server/db/client.ts"]))).toEqual([]);
    expect(broken(graph("server/gateway/gateway.db.test.ts", ["../db/client", "server/db/client.ts"]))).toEqual([]);
    expect(broken(graph("server/gateway/handle.ts", ["../http/respond", "server/http/respond.ts"]))).toEqual([]);
    expect(broken(graph("server/contracts/archive.ts", ["zod", null], ["./common", "server/contracts/common.ts"]))).toEqual([]);
    expect(broken(graph("server/payments/rails/index.ts", ["./mpp", "server/payments/rails/mpp/index.ts"]))).toEqual([]);
    expect(broken(graph("server/payments/rails/mpp/index.ts", ["./accept", "server/payments/rails/mpp/accept.ts"]))).toEqual([]);
    expect(broken(graph("app/checkout/page.tsx", ["@/server/payments/rails/card/view", "server/payments/rails/card/view.ts"]))).toEqual([]);
    expect(broken(graph("server/payments/rails/index.ts", ["./registry", "server/payments/rails/registry.ts"]))).toEqual([]);
    expect(broken(graph("server/testing/rails.ts", ["../payments/rails/registry", "server/payments/rails/registry.ts"]))).toEqual([]);
    expect(broken(graph("server/payments/x.ts", ["./rails/rail", "server/payments/rails/rail.ts"]))).toEqual([]);
    expect(broken(graph("server/trpc/routers/catalog.ts", ["@trpc/server", null]))).toEqual([]);
    expect(broken(graph("app/api/route.ts", ["@/server/http/route", "server/http/route.ts"]))).toEqual([]);
    expect(broken(graph("server/discovery/openapi.ts", ["../catalog/catalog", "server/catalog/catalog.ts"]))).toEqual([]);
    expect(broken(graph("server/gateway/quote.ts", ["../discovery/guide", "server/discovery/guide.ts"]))).toEqual([]);
    expect(broken(graph("server/catalog/x.db.test.ts", ["../discovery/openapi", "server/discovery/openapi.ts"]))).toEqual([]);
    // An operation folder over its own files and the shared floors; the registry over the folders; anyone over a contract.
    const op = "server/market/operations/fred-series/index.ts";
    for (const target of [
      "server/market/operations/fred-series/contract.ts",
      "server/market/operations/operation.ts",
      "server/market/operations/services.ts",
      "server/market/providers/data-file.ts",
      "server/market/archive/feed.ts",
      "server/market/lib/envelope.ts",
      "server/contracts/common.ts",
      "server/errors.ts",
    ])
      expect(broken(graph(op, ["./x", target])), target).toEqual([]);
    expect(broken(graph(op, ["zod", null]))).toEqual([]);
    expect(broken(graph("server/market/operations/fred-series/fred.queries.ts", ["../../../db/client", "server/db/client.ts"]))).toEqual([]);
    expect(broken(graph("server/market/operations/fred-series/fred.test.ts", ["../basis/perps", "server/market/operations/basis/perps.ts"]))).toEqual([]);
    expect(broken(graph("server/market/operations/fred-series/contract.ts", ["../../../contracts/common", "server/contracts/common.ts"]))).toEqual([]);
    expect(broken(graph("server/market/operations/registry.ts", ["./fred-series", "server/market/operations/fred-series/index.ts"]))).toEqual([]);
    expect(broken(graph("server/market/operations/index.ts", ["./registry", "server/market/operations/registry.ts"]))).toEqual([]);
    expect(broken(graph("server/testing/operations.ts", ["../market/operations/registered", "server/market/operations/registered.ts"]))).toEqual([]);
    expect(broken(graph("server/discovery/x.ts", ["../market/operations", "server/market/operations/index.ts"]))).toEqual([]);
    expect(broken(graph("app/x/page.tsx", ["@/server/market/operations/basis/contract", "server/market/operations/basis/contract.ts"]))).toEqual([]);
    expect(
      broken(graph("server/rate-limits/rate-limit.ts", ["../env", "server/env.ts"], ["./rate-limit.queries", "server/rate-limits/rate-limit.queries.ts"])),
    ).toEqual([]);
  });

  it("flags an import that climbs back up a floor, and allows one down or a listed climb", () => {
    const climbs = (g: SourceFile[]) => findClimbs(g).map((v) => v.rule);
    expect(climbs(graph("server/payments/settle-payment.ts", ["../gateway/run-paid-call", "server/gateway/run-paid-call.ts"]))).toEqual([FLOOR_RULE.name]);
    expect(climbs(graph("server/catalog/catalog.ts", ["../analytics/span", "server/analytics/span.ts"]))).toEqual([FLOOR_RULE.name]);
    // A neighbour on the same floor is not below.
    expect(climbs(graph("server/analytics/x.ts", ["../discovery/guide", "server/discovery/guide.ts"]))).toEqual([FLOOR_RULE.name]);
    expect(climbs(graph("server/gateway/x.ts", ["../payments/paid-call", "server/payments/paid-call.ts"]))).toEqual([]);
    expect(climbs(graph("server/payments/x.ts", ["./payment-state", "server/payments/payment-state.ts"]))).toEqual([]);
    expect(climbs(graph("server/billing/x.queries.ts", ["../payments/payment-state", "server/payments/payment-state.ts"]))).toEqual([]);
    // Tests and test helpers are outside the floors; a folder without a floor is named.
    expect(climbs(graph("server/payments/x.db.test.ts", ["../gateway/run-paid-call", "server/gateway/run-paid-call.ts"]))).toEqual([]);
    expect(roomsWithoutFloor(graph("server/made-up/x.ts", ["../payments/paid-call", "server/payments/paid-call.ts"]))).toEqual(["server/made-up"]);
  });

  it("measures files and functions", () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const text = `export function long() {\n${body(79)}\n}\nexport const short = () => {\n${body(10)}\n};\n`;
    expect(findLongFunctions("server/x.ts", text)).toEqual([{ file: "server/x.ts", name: "long", lines: 81 }]);
    expect(findLongFunctions("server/x.ts", text, 100)).toEqual([]);
    expect(findLongFiles([{ file: "server/x.ts", text: "a\n".repeat(351) }])).toEqual([{ file: "server/x.ts", lines: 351 }]);
    expect(findLongFiles([{ file: "server/x.ts", text: "a\n".repeat(350) }])).toEqual([]);
    expect(findLongFiles([{ file: "server/x.db.test.ts", text: "a\n".repeat(900) }])).toEqual([]);
  });

  it("flags a payment state written into SQL outside the state module", () => {
    const madeUp = "const r = await sql(`update payments set status = 'released' where id = $1 and status = 'verified'`, [id]);";
    const found = (file: string, text = madeUp) =>
      findTextViolations([{ file, text }])
        .filter((v) => v.rule === TEXT_RULES[0]!.name)
        .map((v) => `${v.rule}: ${v.import}`);
    expect(found("server/billing/made-up.queries.ts")).toEqual([`${TEXT_RULES[0]!.name}: 'released'`, `${TEXT_RULES[0]!.name}: 'verified'`]);
    expect(found("app/made-up/route.ts", "sql(`select 1 where status in ('settled', 'consumed')`)")).toHaveLength(2);
    // The state module, the payments queries and tests may; fragments and other quoted words are fine anywhere.
    expect(found("server/payments/payment-state.ts")).toEqual([]);
    expect(found("server/payments/payments.queries.ts")).toEqual([]);
    expect(found("server/billing/made-up.db.test.ts")).toEqual([]);
    expect(found("server/billing/x.queries.ts", "sql(`update payments set status = ${RELEASE.set} where ${RELEASE.guard()} and rail = 'credits'`)")).toEqual(
      [],
    );
  });

  it("flags a payment's state changed other than to a transition's target", () => {
    const found = (file: string, text: string) => findTextViolations([{ file, text }]).filter((v) => v.rule === TEXT_RULES[1]!.name);
    expect(found("server/billing/x.queries.ts", 'sql(`update payments set status = ${stateSql("released")} where id = $1`)')).toHaveLength(1);
    expect(found("server/billing/x.queries.ts", "sql(`update payments p set status = $2::payment_status where p.id = $1`)")).toHaveLength(1);
    expect(found("server/billing/x.queries.ts", 'await tx.payment.updateMany({ where: { id }, data: { status: "failed" } });')).toHaveLength(1);
    expect(found("server/billing/x.queries.ts", "sql(`update payments set status = ${RELEASE.set}, failure_reason = $2 where ${RELEASE.guard()}`)")).toEqual(
      [],
    );
    expect(found("server/billing/x.queries.ts", "sql(`update payments p set status = ${move.set} where p.id = $1`)")).toEqual([]);
    expect(
      found(
        "server/billing/x.queries.ts",
        "await tx.payment.updateMany({ where: { id, status: { in: [...FAIL.from] } }, data: { status: FAIL.to, lockedUntil: null } });",
      ),
    ).toEqual([]);
    // Other tables' states are theirs; tests may do anything.
    expect(found("server/billing/x.queries.ts", "sql(`update settlements set status = 'succeeded' where payment_id = $1`)")).toEqual([]);
    expect(found("server/billing/x.db.test.ts", 'await db.payment.update({ where: { id }, data: { status: "settled" } });')).toEqual([]);
  });
});
