// The seller's risk when a wallet-paid answer goes out before its transaction is included on chain
// (server/payments/settle-payment.ts): per payer wallet, the value delivered and not yet settled stays at or below
// the seller's cap (seller_settings.unsettled_cap_micros), or this default where the seller set none.
//
// $0.50 by default: 25 calls at the demo's $0.02, a few seconds of one agent's calls on Base at 2 s a block, and half
// of what the official x402 client pays in one payment by default ($1). A seller who sells dearer calls, or to agents
// that call faster, raises it; 0 makes every wallet-paid call wait for inclusion as before.
export const DEFAULT_UNSETTLED_CAP_MICROS = 500_000n;

/** The most a seller may set: $1,000 of value delivered but not yet settled, per payer wallet. */
export const MAX_UNSETTLED_CAP_MICROS = 1_000_000_000n;

// Beside it, across all wallets: a wallet costs nothing to make, so a per-wallet cap alone bounds nothing (twenty fresh
// wallets emptied while their calls are in flight would cost twenty caps). The total value delivered before inclusion
// and not yet settled, whoever paid, stays at or below this (seller_settings.seller_unsettled_cap_micros); past it,
// wallet-paid calls wait for inclusion. $5 by default: ten wallets at the default per-wallet cap.
export const DEFAULT_SELLER_UNSETTLED_CAP_MICROS = 5_000_000n;

/** The most a seller may set across all wallets: $100,000. */
export const MAX_SELLER_UNSETTLED_CAP_MICROS = 100_000_000_000n;
