// Test files run several at a time against one PostgreSQL, each with sellers of its own. A file that acts on every
// seller's rows (a reconciler pass, the webhook and alert workers, a key rotation) or counts rows across all sellers
// cannot share a database with files running beside it: it gets a database of its own, copied from the migrated
// template the global set-up makes (scripts/test/vitest-global-setup.ts), on the same server. A new file of that kind
// is added here, with the reason.
import { createHash } from "node:crypto";
import pg from "pg";

export const OWN_DATABASE: Record<string, string> = {
  "server/payments/reconciler.db.test.ts": "reconcileOnce settles, releases and reconciles every seller's payments",
  "server/payments/deliver-first.db.test.ts": "reconcileOnce, and it makes every pending settlement due",
  "server/payments/payment-phase.db.test.ts": "the card rail's reconcile runs over every seller's checkouts",
  "server/analytics/funnel.db.test.ts": "reconcileOnce",
  "server/payments/rails/card/reconcile-card-payments.db.test.ts": "the card rail's reconcile runs over every seller's checkouts",
  "server/payments/rails/card/processor/stripe-processor.db.test.ts": "the card rail's reconcile; counts every outbox message",
  "server/payments/rails/card/checkout/checkout-payer.db.test.ts": "counts every outbox message",
  "server/alerts/check-alerts.db.test.ts": "checkAlerts and notifyAlerts run over every seller",
  "server/webhooks/deliver-webhooks.db.test.ts": "deliverDueWebhooks and notifyAlerts run over every seller",
  "server/webhooks/two-instances.db.test.ts": "its worker processes deliver every seller's webhooks",
  "server/identity/signing-keys.db.test.ts": "it ages every signing key, and a rotation elsewhere would add one",
  "server/gateway/payment-headers.fuzz.db.test.ts": "counts every payment, purchase, card payment and ledger row",
  "server/mcp/mcp.db.test.ts": "counts every payment",
  "server/payments/eip3009/record-refund.db.test.ts": "counts every ledger row",
};

/** The database `url` names, and the same URL naming `database` instead. */
function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export function templateDatabaseUrl(url: string): string {
  return withDatabase(url, `${new URL(url).pathname.slice(1)}_template`);
}

/** Copy the migrated database `url` names into its template (no session may be connected to `url` meanwhile). */
export async function makeTemplate(url: string): Promise<void> {
  const template = new URL(templateDatabaseUrl(url)).pathname.slice(1);
  await onServer(url, async (c) => {
    await c.query(`drop database if exists "${template}" with (force)`);
    await c.query(`create database "${template}" template "${new URL(url).pathname.slice(1)}"`);
  });
}

/** A database of its own for the test file at `relativePath`, copied from the template; its URL. */
export async function ownDatabase(url: string, relativePath: string): Promise<string> {
  const name = `test_${createHash("sha256").update(relativePath).digest("hex").slice(0, 12)}`;
  const template = new URL(templateDatabaseUrl(url)).pathname.slice(1);
  await onServer(url, async (c) => {
    await c.query(`drop database if exists "${name}" with (force)`);
    await c.query(`create database "${name}" template "${template}"`);
  });
  return withDatabase(url, name);
}

async function onServer(url: string, fn: (c: pg.Client) => Promise<void>): Promise<void> {
  const c = new pg.Client({ connectionString: withDatabase(url, "postgres") });
  await c.connect();
  try {
    await fn(c);
  } finally {
    await c.end();
  }
}
