// Ranked text search over operations (BM25 over weighted fields). Small, dependency-free, deterministic:
// the catalog is tens of operations, so an index is built per query in microseconds.

export type SearchDoc = { id: string; fields: { text: string; weight: number }[] };

const STOP = new Set([
  "a",
  "an",
  "and",
  "the",
  "of",
  "for",
  "to",
  "in",
  "on",
  "by",
  "with",
  "or",
  "is",
  "it",
  "as",
  "at",
  "be",
  "me",
  "my",
  "i",
  "get",
  "what",
  "how",
  "this",
  "that",
  "from",
]);

/**
 * Lower-case word tokens with light stemming (plural and -ing/-ed endings), stop words removed. A hyphenated term
 * ("10-year", "10-K", "sale-partial") is also one token of its own, so it outranks its parts found apart ("10" and
 * "year" in different places).
 */
export function tokenize(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  for (const raw of lower.split(/[^a-z0-9]+/)) {
    if (!raw || STOP.has(raw)) continue;
    out.push(stem(raw));
  }
  for (const compound of lower.match(/[a-z0-9]+(?:-[a-z0-9]+)+/g) ?? []) out.push(stem(compound.replace(/-/g, "")));
  return out;
}

function stem(w: string): string {
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 5 && w.endsWith("ing")) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith("ed")) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}

const K1 = 1.2;
const B = 0.75;

/** Scores > 0 only, best first; ties keep catalog order. */
export function rankDocuments(query: string, docs: SearchDoc[]): { id: string; score: number }[] {
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0) return [];
  const tokenized = docs.map((d) => d.fields.map((f) => ({ tokens: tokenize(f.text), weight: f.weight })));
  const lengths = tokenized.map((fs) => fs.reduce((n, f) => n + f.tokens.length * f.weight, 0));
  const avgLen = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  const df = new Map<string, number>();
  for (const fs of tokenized) {
    const seen = new Set(fs.flatMap((f) => f.tokens));
    for (const t of terms) if (seen.has(t) || [...seen].some((s) => s.startsWith(t) && t.length >= 4)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const n = docs.length;
  const scored = docs.map((d, i) => {
    let score = 0;
    let matched = 0;
    for (const t of terms) {
      let tf = 0;
      for (const f of tokenized[i]!) {
        for (const tok of f.tokens) {
          if (tok === t) tf += f.weight;
          else if (t.length >= 4 && tok.startsWith(t)) tf += f.weight * 0.5; // prefix: "treas" finds "treasury"
        }
      }
      if (tf === 0) continue;
      matched++;
      const idf = Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
      score += idf * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[i]!) / (avgLen || 1))));
    }
    // Documents matching more of the query's terms always outrank those matching fewer.
    return { id: d.id, score: matched === 0 ? 0 : matched * 1000 + score, order: i };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ id, score }) => ({ id, score: Math.round(score * 1000) / 1000 }));
}
