// The console shell's search box: one text, every kind of thing a seller looks for (a payment id, a wallet, a
// transaction, a card processor id, an agent credential, a person's email, a plan, meter or operation), each hit with
// the console page that shows it. What the text looks like decides where it is looked for, so a search is a few index
// probes (search.queries.ts).
import { formatUsd, microsToUsd } from "../lib/money";
import { findCatalogHits, findCredentialHits, findPayerHit, findPaymentHits } from "./search.queries";

export type SearchHit = {
  kind: "payment" | "wallet" | "credential" | "person" | "plan" | "meter" | "operation";
  id: string;
  label: string;
  detail: string;
  href: string;
  /** A payment hit's facts, for the console to say in its own words (dollars, the state's label). */
  payment?: { amountUsd: string; status: string; rail: string | null; operation: string; createdAt: string };
};

const LIMIT = 8;
const enc = encodeURIComponent;

export async function searchConsole(sellerId: string, raw: string): Promise<{ q: string; hits: SearchHit[] }> {
  const q = raw.trim();
  if (!q) return { q, hits: [] };
  const lower = q.toLowerCase();
  const wallet = /^0x[0-9a-f]{40}$/i.test(q);
  const credentialId = /^agt_[A-Za-z0-9]+$/.test(q);
  const email = q.includes("@");
  const [payments, payer, credentials, catalog] = await Promise.all([
    /^(pay_|payref_|pi_|cs_|0x[0-9a-f]{64}$)/i.test(q) ? findPaymentHits(sellerId, q, LIMIT) : [],
    wallet || credentialId ? findPayerHit(sellerId, wallet ? lower : q) : null,
    credentialId || email ? findCredentialHits(sellerId, q, LIMIT) : [],
    wallet || credentialId || email || q.length < 2 ? [] : findCatalogHits(sellerId, q, LIMIT),
  ]);
  const hits: SearchHit[] = [];
  for (const p of payments)
    hits.push({
      kind: "payment",
      id: p.id,
      label: `${formatUsd(BigInt(p.amount_micros))} · ${p.operation_key}`,
      detail: `${p.status}${p.rail ? ` on ${p.rail}` : ""} · ${p.created_at.slice(0, 10)}`,
      href: `/console/payments/${enc(p.id)}`,
      payment: { amountUsd: microsToUsd(BigInt(p.amount_micros)), status: p.status, rail: p.rail, operation: p.operation_key, createdAt: p.created_at },
    });
  if (payer && wallet)
    hits.push({
      kind: "wallet",
      id: lower,
      label: lower,
      detail: `${payer.payments} payments, last ${payer.lastAt.slice(0, 10)}`,
      href: `/console/payments?payer=${enc(lower)}`,
    });
  for (const c of credentials) {
    hits.push({
      kind: "credential",
      id: c.id,
      label: c.id,
      detail: `${c.kind.replace("_", " ")}, ${c.status.replace("_", " ")}${c.email ? ` · claimed by ${c.email}` : ""}`,
      href: `/console/payments?q=${enc(c.id)}`,
    });
  }
  if (email && credentials.length > 0)
    hits.unshift({
      kind: "person",
      id: lower,
      label: lower,
      detail: `${credentials.length} agent credential(s) claimed here`,
      href: `/console/payments?q=${enc(lower)}`,
    });
  if (payer && credentialId && credentials.length === 0)
    hits.push({ kind: "credential", id: q, label: q, detail: `${payer.payments} payments`, href: `/console/payments?q=${enc(q)}` });
  for (const c of catalog)
    hits.push({
      kind: c.kind,
      id: c.key,
      label: c.name,
      detail: c.key,
      href: c.kind === "plan" ? "/console/plans" : c.kind === "meter" ? "/console/prices" : `/console/payments?operation=${enc(c.key)}`,
    });
  return { q, hits };
}
