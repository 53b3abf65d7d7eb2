// Settlement goes through a facilitator: `local` verifies and settles in-process with @x402/evm's exact scheme
// (the audited EIP-3009 checks: signature over TransferWithAuthorization, recipient, exact amount, validity
// window, token domain, balance by simulation) and a viem wallet that submits transferWithAuthorization to
// RPC_URL; `remote` is an HTTP facilitator per the x402 spec (/verify, /settle, /supported).
// Outcomes are values; only programming errors throw.
import { HTTPFacilitatorClient } from "@x402/core/server";
import { x402Facilitator } from "@x402/core/facilitator";
import type { PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import type { Hex } from "viem";
import { walletClient } from "../../chain/clients";
import { NETWORK } from "../../chain/config";
import { env } from "../../env";

export type VerifyOutcome = { type: "valid"; payer: string } | { type: "invalid"; reason: string; message?: string } | { type: "unavailable"; detail: string };
export type SettleOutcome =
  | { type: "settled"; transaction: string; payer: string }
  /** Definitive: this authorization will never settle (insufficient funds, used elsewhere, expired, reverted). */
  | { type: "failed"; reason: string; message?: string; transaction?: string }
  /** Transient (RPC or facilitator unreachable, receipt not yet seen): retry later. */
  | { type: "pending"; detail: string; transaction?: string };

export interface Facilitator {
  readonly kind: "local" | "remote";
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyOutcome>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleOutcome>;
  supported(): Promise<SupportedResponse>;
}

// Failures that say nothing about the authorization itself: the RPC was unreachable, or the gas wallet's nonce
// raced another sender (several instances sharing one gas wallet). Those settlements are retried.
const TRANSIENT =
  /HTTP request failed|fetch failed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|timed? ?out|socket|network|nonce too low|nonce has already been used|replacement transaction underpriced|already known/i;

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

export class LocalFacilitator implements Facilitator {
  readonly kind = "local" as const;
  private readonly facilitator: x402Facilitator;

  constructor(rpcUrl: string, privateKey: Hex) {
    const wallet = walletClient(rpcUrl, privateKey);
    // viem's client satisfies the signer structurally; its generic overloads are narrower than the signer's
    // loose argument types, hence the cast.
    const signer = toFacilitatorEvmSigner(
      Object.assign(wallet, { address: wallet.account.address }) as unknown as Parameters<typeof toFacilitatorEvmSigner>[0],
      {
        confirmationTimeoutMs: 60_000,
      },
    );
    this.facilitator = new x402Facilitator().register(NETWORK, new ExactEvmScheme(signer));
  }

  async verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyOutcome> {
    try {
      return fromVerify(await this.facilitator.verify(payload, requirements));
    } catch (e) {
      return { type: "unavailable", detail: e instanceof Error ? e.message.split("\n")[0]! : String(e) };
    }
  }

  async settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleOutcome> {
    try {
      return classifySettle(await this.facilitator.settle(payload, requirements));
    } catch (e) {
      return { type: "pending", detail: e instanceof Error ? e.message.split("\n")[0]! : String(e) };
    }
  }

  async supported(): Promise<SupportedResponse> {
    return this.facilitator.getSupported() as SupportedResponse;
  }
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

  async settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleOutcome> {
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
  if (instance?.key === key) return instance.facilitator;
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

/** Tests only. */
export function setFacilitatorForTests(f: Facilitator | undefined): void {
  instance = f ? { key: "test", facilitator: f } : undefined;
}
