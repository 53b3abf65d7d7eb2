// Settlement goes through a facilitator: `local` (./local-facilitator.ts) verifies by simulating the transfer on
// RPC_URL and settles with our own gas wallet; `remote` is an HTTP facilitator per the x402 spec (/verify, /settle,
// /supported), for example a hosted one. Outcomes are values; only programming errors throw.
import { HTTPFacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from "@x402/core/types";
import type { Hex } from "viem";
import { NETWORK } from "../../chain/config";
import { env } from "../../env";
import { LocalFacilitator } from "./local-facilitator";
import { TRANSIENT, type Facilitator, type SettleOptions, type SettleOutcome, type VerifyOutcome } from "./outcomes";

export type { Facilitator, SettleOptions, SettleOutcome, VerifyOutcome };
export { TRANSIENT };

function fromVerify(r: VerifyResponse): VerifyOutcome {
  return r.isValid ? { type: "valid", payer: r.payer ?? "" } : { type: "invalid", reason: r.invalidReason ?? "invalid_payment", message: r.invalidMessage };
}

export function classifySettle(r: SettleResponse): SettleOutcome {
  if (r.success) return { type: "settled", transaction: r.transaction, payer: r.payer ?? "" };
  const reason = r.errorReason ?? "settlement_failed";
  if (reason === "settlement_pending" || (reason.endsWith("transaction_failed") && !r.transaction && TRANSIENT.test(r.errorMessage ?? "")))
    return { type: "pending", detail: r.errorMessage ?? reason, transaction: r.transaction || undefined };
  return { type: "failed", reason, message: r.errorMessage, transaction: r.transaction || undefined };
}

export class RemoteFacilitator implements Facilitator {
  readonly kind = "remote" as const;
  private readonly client: HTTPFacilitatorClient;

  constructor(url: string) {
    this.client = new HTTPFacilitatorClient({ url, timeoutMs: 15_000 });
  }

  async verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyOutcome> {
    try {
      return fromVerify(await this.client.verify(payload, requirements));
    } catch (e) {
      // A 4xx with a verify body is an answer ("invalid"), anything else means we could not ask.
      const r = e as { invalidReason?: string; invalidMessage?: string; statusCode?: number };
      if (r.invalidReason) return { type: "invalid", reason: r.invalidReason, message: r.invalidMessage };
      return { type: "unavailable", detail: e instanceof Error ? e.message.split("\n")[0]! : String(e) };
    }
  }

  async settle(payload: PaymentPayload, requirements: PaymentRequirements, opts: SettleOptions = {}): Promise<SettleOutcome> {
    // An HTTP facilitator answers only once it settled (or gave up): no hash to answer with before that.
    opts.onSubmitted?.(null);
    try {
      return classifySettle(await this.client.settle(payload, requirements));
    } catch (e) {
      const r = e as { errorReason?: string; errorMessage?: string; transaction?: string; statusCode?: number };
      if (r.errorReason && (r.statusCode ?? 500) < 500)
        return classifySettle({ success: false, errorReason: r.errorReason, errorMessage: r.errorMessage, transaction: r.transaction ?? "", network: NETWORK });
      return { type: "pending", detail: e instanceof Error ? e.message.split("\n")[0]! : String(e) };
    }
  }

  supported(): Promise<SupportedResponse> {
    return this.client.getSupported();
  }
}

let instance: { key: string; facilitator: Facilitator } | undefined;

/** The configured facilitator (FACILITATOR=local|remote), one per process. */
export function getFacilitator(): Facilitator {
  const e = env();
  const key = `${e.FACILITATOR}|${e.RPC_URL}|${e.FACILITATOR_URL ?? ""}|${e.FACILITATOR_PRIVATE_KEY ? "k" : ""}`;
  // One set by a test stands until the test clears it, whatever the environment says.
  if (instance?.key === key || instance?.key === TEST_KEY) return instance.facilitator;
  let facilitator: Facilitator;
  if (e.FACILITATOR === "remote") facilitator = new RemoteFacilitator(e.FACILITATOR_URL!);
  else if (e.FACILITATOR_PRIVATE_KEY) facilitator = new LocalFacilitator(e.RPC_URL, e.FACILITATOR_PRIVATE_KEY as Hex);
  else facilitator = unconfigured;
  instance = { key, facilitator };
  return facilitator;
}

const unconfigured: Facilitator = {
  kind: "local",
  verify: async () => ({ type: "unavailable", detail: "FACILITATOR_PRIVATE_KEY is not set (FACILITATOR=local)" }),
  settle: async () => ({ type: "pending", detail: "FACILITATOR_PRIVATE_KEY is not set (FACILITATOR=local)" }),
  supported: async () => ({ kinds: [], extensions: [], signers: {} }),
};

const TEST_KEY = "test";

/** Tests only. */
export function setFacilitatorForTests(f: Facilitator | undefined): void {
  instance = f ? { key: TEST_KEY, facilitator: f } : undefined;
}
