// Child process for the budgets' two-instance test: one app instance (its own memory, pool and caches; the same
// PostgreSQL) sending BUDGET_CALLS concurrent paid calls through the gateway route, alternating the bearers in
// BUDGET_TOKENS. It warms up (a burst of calls by an agent without a budget), prints `ready`, fires when the test writes `go` on stdin, waits for its captures, then
// prints one line: `result <json>` with each status's count and the payment ids of the answered calls.
import * as gatewayRoute from "../../app/api/v1/[...path]/route";
import { flushCaptures } from "../payments/rails/credits/capture-queue";

const host = process.env.BUDGET_HOST!;
const path = process.env.BUDGET_PATH!;
const tokens = process.env.BUDGET_TOKENS!.split(",");
const calls = Number(process.env.BUDGET_CALLS);
const request = (headers: Record<string, string>) =>
  gatewayRoute.GET(new Request(`http://${host}${path}`, { headers: { ...headers, host } }), { params: Promise.resolve({}) });

// Warm-up: a 402, then a burst of paid calls by an agent no budget applies to (BUDGET_WARM_TOKEN), so each instance has
// loaded its paid path and opened its pool before the race, and the two start it on an even footing.
await (await request({})).arrayBuffer();
await Promise.all(Array.from({ length: 20 }, async () => (await request({ authorization: `Bearer ${process.env.BUDGET_WARM_TOKEN}` })).arrayBuffer()));
await flushCaptures();
console.log("ready");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
const answers = await Promise.all(
  Array.from({ length: calls }, async (_, i) => {
    const res = await request({ authorization: `Bearer ${tokens[i % tokens.length]}` });
    const body = (await res.json()) as { error?: string };
    return { status: res.status, error: body.error ?? null, payment: res.headers.get("svc-payment-id") };
  }),
);
await flushCaptures();
const statuses: Record<string, number> = {};
for (const a of answers) statuses[`${a.status} ${a.error ?? ""}`.trim()] = (statuses[`${a.status} ${a.error ?? ""}`.trim()] ?? 0) + 1;
const paid = answers.filter((a) => a.status === 200).map((a) => a.payment);
console.log(`result ${JSON.stringify({ statuses, paid })}`);
process.exit(0);
