// The Payments CSV export: 100,000 rows stream through in pages, read only as the client reads (memory stays one page
// deep), every row once, newest first; a filtered export equals the filtered list, page by page, field by field.
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db, sql } from "../db/client";
import { streamedDownload } from "../http/respond";
import { newId } from "../lib/ids";
import { CSV_COLUMNS, EXPORT_BATCH, csvField, exportSellerPayments } from "./export-seller-payments";
import { listSellerPayments } from "./list-seller-payments";
import type { PaymentFilterInput } from "./payment-filter";
import { csvTime, csvUsd } from "../lib/csv";
import { railWords, STATUS_WORDS } from "../contracts/payment-words";

const N = 100_000;
let sellerId: string;

/** Minimal RFC 4180 parsing (quoted fields, doubled quotes), enough to read our own export back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  return rows;
}

beforeAll(async () => {
  const tag = newId("tst").slice(4, 12);
  ({ sellerId } = await seedMarketSeller(db, {
    slug: `csv-${tag}`,
    name: "CSV",
    hosts: [`csv-${tag}.test`],
    email: `csv-${tag}@csv.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  }));
  // 100,000 payments over 10 days: every state, three operations, two rails, 50 payers; one second apart, and some
  // sharing a timestamp (the keyset must break ties by id). Queries with commas and quotes exercise the quoting.
  await sql(
    `insert into payments (id, seller_id, status, from_challenge, rail, method, path, query, operation_key, meter_key, amount_micros, network, payer,
       transaction, expires_at, created_at, updated_at, settled_at)
     select 'pay_csv' || lpad(g::text, 7, '0'), $1,
       (array['challenged','verified','settled','consumed','released','refunded','failed'])[1 + g % 7]::payment_status, true,
       case when g % 7 = 0 then null when g % 3 = 0 then 'mpp' else 'x402' end,
       'GET', '/api/v1/aggregates/AAPL', case when g % 11 = 0 then 'a=1,2&b="x"' else 'from=2024-01-02' end,
       (array['aggregates','backtest','basis'])[1 + g % 3], 'aggregates', 20000 + g % 5, 'eip155:8453',
       case when g % 7 = 0 then null else '0x' || lpad(to_hex(g % 50), 40, '0') end,
       case when g % 7 in (2, 3, 5) then '0x' || lpad(to_hex(g), 64, '0') end,
       timestamp '2025-03-01' + make_interval(secs => g - g % 4 + 300), timestamp '2025-03-01' + make_interval(secs => g - g % 4),
       timestamp '2025-03-01' + make_interval(secs => g - g % 4),
       case when g % 7 in (2, 3, 5) then timestamp '2025-03-01' + make_interval(secs => g - g % 4 + 2) end
     from generate_series(1, $2::int) g`,
    [sellerId, N],
  );
}, 120_000);

async function exportText(filter: PaymentFilterInput, batch?: number): Promise<string> {
  let text = "";
  for await (const chunk of exportSellerPayments(sellerId, filter, { batch })) text += chunk;
  return text;
}

describe("payments CSV export", () => {
  it("streams 100,000 rows page by page, reading the next page only when the client asks for it", async () => {
    let batches = 0;
    let rowsRead = 0;
    const res = streamedDownload(
      exportSellerPayments(
        sellerId,
        { includeChallenged: true },
        {
          onBatch: (n) => {
            batches += 1;
            rowsRead += n;
          },
        },
      ),
      {
        contentType: "text/csv; charset=utf-8",
        fileName: "payments.csv",
      },
    );
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="payments.csv"');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    // The header, then one page: nothing more is read from the database until the client reads on.
    const header = decoder.decode((await reader.read()).value);
    expect(header).toBe(CSV_COLUMNS.join(",") + "\r\n");
    const first = decoder.decode((await reader.read()).value);
    // Time enough for several pages to be read ahead (one takes well under this), were anything reading ahead.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(batches).toBe(1);
    expect(first.split("\r\n").length - 1).toBe(EXPORT_BATCH);

    let largestChunk = first.length;
    let lines = first.split("\r\n").slice(0, -1);
    const ids = new Set(lines.map((l) => l.split(",")[0]));
    let previousFirstColumn = lines[lines.length - 1]!;
    let ordered = true;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = decoder.decode(value);
      largestChunk = Math.max(largestChunk, text.length);
      lines = text.split("\r\n").slice(0, -1);
      for (const l of lines) {
        ids.add(l.split(",")[0]);
        // Newest first: created_at (column 2) never increases.
        if (l.split(",")[1]! > previousFirstColumn.split(",")[1]!) ordered = false;
        previousFirstColumn = l;
      }
      // Pull-driven to the end: the pages read are the pages delivered, plus at most the closing empty one.
      expect(batches).toBeLessThanOrEqual(Math.ceil(ids.size / EXPORT_BATCH) + 1);
    }
    expect(ids.size).toBe(N);
    expect(rowsRead).toBe(N);
    expect(batches).toBe(N / EXPORT_BATCH + 1);
    expect(ordered).toBe(true);
    // Memory stays one page deep: no chunk is bigger than a page of rows.
    expect(largestChunk).toBeLessThan(EXPORT_BATCH * 400);
  }, 120_000);

  it("a filtered export equals the filtered list, row by row and field by field", async () => {
    const filter: PaymentFilterInput = {
      status: ["consumed", "refunded", "settled"],
      rail: "x402",
      operation: "backtest",
      payer: "0x" + (7).toString(16).padStart(40, "0").toUpperCase().replace("X", "x"),
      from: "2025-03-01",
      to: "2025-03-01",
    };
    const rows = parseCsv(await exportText(filter, 7));
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const list: Awaited<ReturnType<typeof listSellerPayments>>["payments"] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof listSellerPayments>> = await listSellerPayments(sellerId, { ...filter, cursor });
      list.push(...page.payments);
      cursor = page.nextCursor;
    } while (cursor);
    expect(list.length).toBeGreaterThan(25);
    expect(rows.slice(1).map((r) => Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, r[i]])))).toEqual(
      list.map((p) => ({
        "Payment ID": p.id,
        "Created (UTC)": csvTime(p.createdAt),
        Operation: p.operation,
        Method: p.method,
        Path: p.path,
        Query: p.query,
        Amount: csvUsd(p.amountUsd),
        Currency: p.currency,
        "Paid with": railWords(p.rail),
        Payer: p.payer ?? "",
        "Payer email": "",
        Card: "",
        Status: STATUS_WORDS[p.status],
        Network: p.chain ?? "",
        Transaction: p.transaction ?? "",
        "Settled (UTC)": csvTime(p.settledAt),
        "Failure reason": p.failureReason ?? "",
        "Refund ID": "",
        "Refund transaction": p.refundTransaction ?? "",
        "Refunded (UTC)": csvTime(p.refundedAt),
        "Amount refunded": csvUsd(p.refundedUsd),
        Refunds: "",
      })),
    );
    for (const p of list) {
      expect(p).toMatchObject({ rail: "x402", operation: "backtest", payer: "0x" + "7".padStart(40, "0") });
      expect(["consumed", "refunded", "settled"]).toContain(p.status);
      expect(p.createdAt.startsWith("2025-03-01")).toBe(true);
    }
  });

  it("quotes fields per RFC 4180 and defuses spreadsheet formulas", () => {
    expect(csvField('a=1,2&b="x"')).toBe('"a=1,2&b=""x"""');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField(null)).toBe("");
    expect(csvField("plain")).toBe("plain");
  });
});
