// The paid gateway, one request, for every rail alike:
//   price the call (match, validate, price) -> rate limits -> which rail's proof does it carry (the registry)
//   -> none: the 402 with every rail's offer | a proof: accept -> proxy -> charge or release -> render.
// Server-Timing on paid answers splits the time into the upstream, the chain (RPC round trips, receipt waits) and
// the gateway's own work (everything else), and says how much of the own work was waiting on PostgreSQL (`db`).
import { recordPaymentRefusal } from "../analytics/record-payment-refusal";
import type { RouteContext } from "../http/route";
import { chainMsSoFar, dbMsSoFar, timeRequest } from "../lib/request-timing";
import { createChallenge } from "../payments/create-challenge";
import { readPaymentProof, type PaymentProof } from "../payments/rails";
import { priceCall } from "./paid-call";
import { proxyUpstream } from "./proxy-upstream";
import { enforceRateLimits } from "./rate-limit";
import { renderChallenge, renderOutcome } from "./render-outcome";
import { servePaidCall, upstreamDelivery } from "./serve-paid-call";
import { AppError } from "../errors";

export async function handleGatewayRequest(ctx: RouteContext): Promise<Response> {
  const { result } = await timeRequest(() => handle(ctx));
  return result;
}

async function handle(ctx: RouteContext): Promise<Response> {
  const t0 = performance.now();
  const priced = await priceCall(ctx);
  if (priced.type === "free") {
    await enforceRateLimits({ sellerId: priced.seller.id });
    const u = priced.upstream;
    const upstream = await proxyUpstream({ url: u.url, method: u.method, signingSecret: u.signingSecret, requestHeaders: ctx.req.headers, origin: ctx.origin });
    if (upstream.type === "timeout") throw new AppError("upstream_timeout", { detail: "the upstream did not answer in time" });
    if (upstream.type === "unreachable") throw new AppError("upstream_unavailable", { detail: "the upstream could not be reached" });
    return renderOutcome({ type: "free", upstream });
  }
  const { call } = priced;
  // A proof refused before any rail looks at it (two rails' proofs at once, a rate limit) is a funnel fact too.
  const refusal = (rail: string | null, error: unknown) => recordPaymentRefusal({ sellerId: call.sellerId, rail, operationKey: call.operationKey, error });
  let proof: PaymentProof;
  try {
    proof = readPaymentProof(ctx.req.headers);
  } catch (e) {
    await refusal(null, e);
    throw e;
  }
  try {
    await enforceRateLimits({ sellerId: call.sellerId, payer: proof.type === "proof" && proof.rail.payer ? () => proof.rail.payer!(proof.proof) : undefined });
  } catch (e) {
    if (proof.type !== "none") await refusal(proof.rail.name, e);
    throw e;
  }
  if (proof.type === "none") return renderChallenge(await createChallenge(call));

  const phases: string[] = [];
  let mark = performance.now();
  let upstreamMs = 0;
  const timings = {
    lap(name: string) {
      const now = performance.now();
      if (name === "upstream") upstreamMs = now - mark;
      phases.push(`${name};dur=${(now - mark).toFixed(1)}`);
      mark = now;
    },
  };
  const outcome =
    proof.type === "malformed"
      ? ({ type: "refused", call, rail: proof.rail, error: proof.error, freshChallenge: proof.freshChallenge } as const)
      : await servePaidCall(call, proof.rail, proof.proof, upstreamDelivery(priced.upstream, { headers: ctx.req.headers, origin: ctx.origin }), timings);
  if (outcome.type === "refused") {
    await refusal(outcome.rail.name, outcome.error);
    const fresh = (outcome.freshChallenge ?? outcome.rail.refusal?.freshChallenge) ? await createChallenge(call) : undefined;
    return renderOutcome(outcome, { freshChallenge: fresh });
  }
  // An implicit rail that covers nothing here (no plan for this meter, credit used up): pay-as-you-go, as without it.
  if (outcome.type === "declined") return renderChallenge(await createChallenge(call, { reason: outcome.reason, detail: outcome.detail }));
  const total = performance.now() - t0;
  const chain = chainMsSoFar();
  const own = total - chain - upstreamMs;
  // `db` (statements sent with sql(), the paid path's) is part of `own`: own minus db is the gateway's CPU and waiting.
  const db = dbMsSoFar();
  const serverTiming = [
    ...phases,
    `chain;dur=${chain.toFixed(1)}`,
    `db;dur=${db.toFixed(1)}`,
    `own;dur=${own.toFixed(1)}`,
    `total;dur=${total.toFixed(1)}`,
  ].join(", ");
  return renderOutcome(outcome, { serverTiming });
}
