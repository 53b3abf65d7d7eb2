import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, lower case

/** Every id prefix in use, with what it names, so a log line or a support ticket says what an id is. */
export const ID_PREFIXES = {
  agt: "agent credential",
  apr: "approval of a paid call over its person's threshold",
  apt: "approval threshold",
  alr: "alert to a seller (written by the database: alr_ and 32 hex digits)",
  arc: "archive day",
  art: "backtest artifact",
  bgh: "budget hold (a paid call of a claimed credential reserved against its budgets)",
  bud: "budget (a person's spending limits on the agents they claimed)",
  btx: "batch-settlement transaction (a deposit relayed into an x402 channel, or a claim of vouchers)",
  aud: "audit log row",
  cla: "claim attempt",
  evt: "event (written by the database: evt_ and 32 hex digits)",
  grt: "credit grant (prepaid plan credit)",
  lea: "credit lease (plan credit an instance holds, server/payments/rails/credits)",
  ins: "app instance (a process holding credit leases)",
  hsc: "human sign-in code",
  hum: "human",
  led: "ledger entry",
  msg: "outbox message",
  mtr: "meter",
  op: "operation",
  pay: "payment",
  pln: "plan",
  inv: "invitation to a seller's console team",
  pwr: "password reset",
  prc: "price",
  rcv: "recovery code of a seller user's second factor",
  rft: "refresh token",
  sel: "seller",
  stl: "settlement (outbox row)",
  svc: "service",
  tip: "trusted identity provider",
  usr: "seller user",
  whd: "webhook delivery (written by the database with its event: whd_ and 32 hex digits)",
  whe: "webhook endpoint",
  tst: "test fixture tag",
} as const;

export type IdPrefix = keyof typeof ID_PREFIXES;

// The CSPRNG is asked for a block at a time, as node's randomUUID does: one call per 256 ids rather than one per id
// (each call costs more than its 16 bytes, and a paid call makes an id or two).
const BLOCK = 4096;
let block = Buffer.alloc(0);
let used = 0;

function random16(): Buffer {
  if (used + 16 > block.length) {
    block = randomBytes(BLOCK);
    used = 0;
  }
  used += 16;
  return block.subarray(used - 16, used);
}

/** A prefixed random id (`pay_8f3k...`): 16 base32 chars = 80 bits, readable in logs. */
export function newId(prefix: IdPrefix): string {
  const bytes = random16();
  let out = "";
  for (const b of bytes) out += ALPHABET[b & 31];
  return `${prefix}_${out}`;
}
