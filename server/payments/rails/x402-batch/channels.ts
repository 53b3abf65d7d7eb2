// Channels as this instance knows them: a bounded in-memory copy of their rows, so a voucher on a channel seen lately is
// checked without a read (its base, its escrow, its payer not withdrawing). The copy is only ever a hint: the spend's
// statement checks the same against PostgreSQL, and any refusal is decided on a fresh read, never on the copy.
import "server-only";
import type { Hex } from "viem";
import { findChannel, upsertChannel, type ChannelRow } from "./batch.queries";
import type { ChannelConfig } from "./channel-terms";
import { readChannel } from "./settlement-contract";

const MAX_CACHED = 10_000;
const cache = new Map<string, ChannelRow>();

export function cachedChannel(id: string): ChannelRow | undefined {
  return cache.get(id);
}

export function rememberChannel(row: ChannelRow): void {
  if (cache.size >= MAX_CACHED && !cache.has(row.id)) cache.delete(cache.keys().next().value!);
  cache.set(row.id, row);
}

export function forgetChannel(id: string): void {
  cache.delete(id);
}

/**
 * The channel's row, read now. A channel we have no row for may still exist on chain (funded directly, or known to an
 * instance whose state was lost): with escrow there, it is adopted, charged from what was claimed on it, which is the
 * scheme's baseline when a server has no record (whatever it had not claimed, it forfeits).
 */
export async function loadChannel(id: Hex, config: ChannelConfig): Promise<ChannelRow | null> {
  const row = (await findChannel(id)) ?? (await refreshChannel(id, config, { onlyFunded: true }));
  if (row) rememberChannel(row);
  return row;
}

/** The chain's escrow, claimed total and withdrawal into the channel's row (inserted for a channel new to us). */
export async function refreshChannel(id: Hex, config: ChannelConfig, opts: { onlyFunded?: boolean } = {}): Promise<ChannelRow | null> {
  const onChain = await readChannel(id);
  if (opts.onlyFunded && onChain.balance === 0n) return null;
  const row = await upsertChannel({
    id,
    payer: config.payer.toLowerCase(),
    payerAuthorizer: config.payerAuthorizer.toLowerCase(),
    receiver: config.receiver.toLowerCase(),
    receiverAuthorizer: config.receiverAuthorizer.toLowerCase(),
    token: config.token.toLowerCase(),
    withdrawDelay: config.withdrawDelay,
    salt: config.salt.toLowerCase(),
    balance: onChain.balance,
    withdrawRequestedAt: onChain.withdrawRequestedAt ? new Date(onChain.withdrawRequestedAt * 1000) : null,
    claimed: onChain.totalClaimed,
  });
  rememberChannel(row);
  return row;
}
