// The chain's side of our channels, kept current from the settlement contract's logs: a payer's timed withdrawal (after
// which its channel takes no more vouchers and is claimed at once), its end, deposits made without us, refunds. Each
// reconciler pass reads the logs since the last block it saw and re-reads every channel of ours they touch, so what is
// written is the chain's state, whatever order instances run in. The cursor lives in PostgreSQL.
import "server-only";
import { mirrorChannel } from "./batch.queries";
import { advanceCursor, chainCursor, knownChannels } from "./chain.queries";
import { forgetChannel } from "./channels";
import { channelsTouched, latestBlock, readChannel } from "./settlement-contract";

/** Blocks per eth_getLogs: hosted RPCs refuse wide ranges. */
const LOG_RANGE = 5_000n;

/** Channels of ours re-read from the chain in this pass. `fromBlock`: read from there instead of the cursor (tests). */
export async function syncChannels(opts: { fromBlock?: bigint } = {}): Promise<number> {
  const latest = await latestBlock();
  const cursor = opts.fromBlock ?? (await chainCursor());
  // First run: channels we learn of from now on are read when we meet them (a deposit we relay, a voucher's adoption).
  if (cursor === null) {
    await advanceCursor(latest);
    return 0;
  }
  let touched = 0;
  for (let from = cursor; from < latest;) {
    const to: bigint = from + LOG_RANGE < latest ? from + LOG_RANGE : latest;
    for (const id of await knownChannels(await channelsTouched(from, to))) {
      const c = await readChannel(id as `0x${string}`);
      await mirrorChannel(id, {
        balance: c.balance,
        totalClaimed: c.totalClaimed,
        withdrawRequestedAt: c.withdrawRequestedAt ? new Date(c.withdrawRequestedAt * 1000) : null,
      });
      forgetChannel(id);
      touched++;
    }
    await advanceCursor(to);
    from = to;
  }
  return touched;
}
