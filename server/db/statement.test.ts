import { describe, expect, it, vi } from "vitest";

vi.mock("./client", () => ({ sql: vi.fn(async (text: string, values: unknown[], prepare?: string) => ({ rows: [{ text, values, prepare }], rowCount: 1 })) }));

const { bindValues, run, statement } = await import("./statement");

describe("named parameters", () => {
  it("numbers names in the order they first appear, reusing a number for a name used again", () => {
    const s = statement<{ id: string; seller: string; cap: bigint }>(
      "update payments set cap = :cap::bigint where id = :id and seller_id = :seller and (select :id) is not null",
    );
    expect(s.text).toBe("update payments set cap = $1::bigint where id = $2 and seller_id = $3 and (select $2) is not null");
    expect(s.names).toEqual(["cap", "id", "seller"]);
    expect(bindValues(s, { id: "pay_1", seller: "sel_1", cap: 5n })).toEqual([5n, "pay_1", "sel_1"]);
  });

  it("leaves casts, times and quoted keys with colons alone", () => {
    const s = statement<{ key: string }>("select 'eip3009:8453:x'::text, '12:30'::time, :key::jsonb, now() at time zone 'UTC'");
    expect(s.text).toBe("select 'eip3009:8453:x'::text, '12:30'::time, $1::jsonb, now() at time zone 'UTC'");
  });

  it("refuses a statement that mixes positional parameters in, and a call missing a value", () => {
    expect(() => statement("select $1, :a")).toThrow(/positional/);
    const s = statement<{ a: number; b: number }>("select :a, :b");
    expect(() => bindValues(s, { a: 1 } as { a: number; b: number })).toThrow(/no value for :b/);
    expect(() => bindValues(s, { a: 1, b: 2, c: 3 } as { a: number; b: number })).toThrow(/no parameter named :c/);
    // null and undefined are values (SQL null).
    expect(bindValues(s, { a: 1, b: null as unknown as number })).toEqual([1, null]);
  });

  it("runs the positional text, with its values and its prepared statement's name", async () => {
    const s = statement<{ id: string }>("select * from payments where id = :id", "payments_find");
    const { rows } = await run(s, { id: "pay_1" });
    expect(rows[0]).toEqual({ text: "select * from payments where id = $1", values: ["pay_1"], prepare: "payments_find" });
  });
});
