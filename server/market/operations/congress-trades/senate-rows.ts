// Senate periodic transaction reports as Senate Stock Watcher publishes them (aggregate/all_daily_summaries.json: one
// object per report with its transactions) and as the committed CSV keeps them (one row per transaction, the same text),
// turned into one trade shape. The source's fields carry HTML from the eFD pages (the ticker as a Yahoo link, bond
// details in <div>s): a trade gives the text, and every symbol the ticker cell names (an exchange names two).

/** One transaction as the CSV (data/congress/senate-ptr-transactions.csv) and the live adapter both produce it. */
export type SenateRow = {
  transaction_date: string;
  disclosure_date: string;
  member: string;
  bioguide_id: string;
  owner: string;
  ticker: string;
  asset_description: string;
  asset_type: string;
  type: string;
  amount_range: string;
  comment: string;
  ptr_link: string;
};

/** The dataset's published shape (first_name, last_name, office, ptr_link, date_recieved [sic], transactions, bioguide). */
export type SenateFiling = {
  first_name: string;
  last_name: string;
  office?: string;
  ptr_link: string;
  date_recieved: string;
  bioguide?: string;
  transactions: {
    transaction_date: string;
    owner: string;
    ticker: string;
    asset_description: string;
    asset_type: string;
    type: string;
    amount: string;
    comment: string;
  }[];
};

/** MM/DD/YYYY (as eFD prints dates) to YYYY-MM-DD, or null when it is not one. */
export function isoFromUs(us: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(us?.trim() ?? "");
  if (!m) return null;
  const iso = `${m[3]}-${m[1]}-${m[2]}`;
  return new Date(`${iso}T00:00:00Z`).toISOString().slice(0, 10) === iso ? iso : null;
}

/**
 * The dataset's reports as rows, exactly as scripts/data/build-congress.ts wrote the CSV (dates made ISO, the name joined,
 * `--` made empty); a transaction whose dates are not dates is left out and counted.
 */
export function rowsFromFilings(filings: SenateFiling[]): { rows: SenateRow[]; skipped: number } {
  const rows: SenateRow[] = [];
  let skipped = 0;
  for (const f of filings) {
    const disclosed = isoFromUs(f.date_recieved);
    for (const t of f.transactions ?? []) {
      const traded = isoFromUs(t.transaction_date);
      if (!disclosed || !traded) {
        skipped++;
        continue;
      }
      rows.push({
        transaction_date: traded,
        disclosure_date: disclosed,
        member: `${f.first_name} ${f.last_name}`,
        bioguide_id: f.bioguide ?? "",
        owner: t.owner,
        ticker: t.ticker === "--" ? "" : t.ticker,
        asset_description: t.asset_description,
        asset_type: t.asset_type,
        type: t.type,
        amount_range: t.amount,
        comment: t.comment === "--" ? "" : t.comment,
        ptr_link: f.ptr_link,
      });
    }
  }
  return { rows, skipped };
}

const ENTITIES: Record<string, string> = { amp: "&", nbsp: " ", lt: "<", gt: ">", quot: '"', apos: "'" };

/** An eFD HTML fragment as text: <br> as " / ", other tags dropped, entities decoded, whitespace collapsed. */
export function htmlText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, " / ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, e: string) =>
      e[0] === "#" ? String.fromCodePoint(e[1]?.toLowerCase() === "x" ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (ENTITIES[e.toLowerCase()] ?? m),
    )
    .replace(/\s+/g, " ")
    .replace(/^[\s/]+|[\s/]+$/g, "")
    .trim();
}

/** Every symbol a ticker cell names, in order (`--` is none): "<a>RTN</a> <br> <a>RTX</a>" is [RTN, RTX]. */
export function tickersOf(cell: string): string[] {
  return cell
    .split(/<br\s*\/?>/i)
    .map((part) => htmlText(part))
    .filter((s) => s !== "" && s !== "--");
}

/** A member's name with the source's stray spaces and commas tidied ("Jerry Moran,  " -> "Jerry Moran"). */
export const tidyName = (name: string) =>
  name
    .replace(/\s+,/g, ",")
    .replace(/\s+/g, " ")
    .replace(/[\s,]+$/, "")
    .trim();

/** The bounds a published range states ("$1,001 - $15,000"; "Over $50,000,000" has no upper bound); nulls otherwise. */
export function amountBounds(range: string): { min: number | null; max: number | null } {
  const num = (s: string) => Number(s.replace(/,/g, ""));
  const between = /^\$([\d,]+)\s*-\s*\$([\d,]+)$/.exec(range.trim());
  if (between) return { min: num(between[1]!), max: num(between[2]!) };
  const over = /^over\s*\$([\d,]+)$/i.exec(range.trim());
  if (over) return { min: num(over[1]!), max: null };
  return { min: null, max: null };
}

export type Trade = ReturnType<typeof tradeOf>;

/** The answer's trade for one row (chamber senate: the only one the dataset holds). */
export function tradeOf(r: SenateRow) {
  const tickers = tickersOf(r.ticker);
  const bounds = amountBounds(r.amount_range);
  return {
    transaction_date: r.transaction_date,
    disclosure_date: r.disclosure_date,
    member: tidyName(r.member),
    bioguide_id: r.bioguide_id || null,
    chamber: "senate" as const,
    owner: r.owner,
    ticker: tickers[0] ?? null,
    tickers,
    asset_description: htmlText(r.asset_description),
    asset_type: r.asset_type,
    transaction_type: r.type,
    amount_range: r.amount_range,
    amount_min: bounds.min,
    amount_max: bounds.max,
    comment: r.comment ? htmlText(r.comment) : null,
    report_url: r.ptr_link,
  };
}
