// A second instance of the storefront for the x402-batch tests, in a process of its own (its own memory, its own
// connections; the same PostgreSQL and chain), started by a test with BATCH_CHILD set:
//   call   one paid call through the gateway route (BATCH_HOST, BATCH_PATH, BATCH_HEADERS), once the test says go (on
//          stdin; with BATCH_BARRIER it first prints `ready`); prints `status <n> <svc-billing>`; its captures are
//          written before it exits.
//          With GATEWAY_FAULT it dies mid-pipeline instead (exit code 86).
//   claim  one claim pass, forced (for BATCH_RECEIVERS' channels), dying (exit code 86) where BATCH_FAULT says: after_hash_kept (the claim's transaction
//          is signed and its hash recorded, not sent) or before_confirm (it landed, not yet recorded).
import * as gatewayRoute from "../../../../app/api/v1/[...path]/route";
import { flushVoucherCaptures } from "./capture-queue";
import { claimVouchers } from "./claim-vouchers";

const die = () => process.exit(86);

if (process.env.BATCH_CHILD === "call") {
  const host = process.env.BATCH_HOST!;
  const headers = JSON.parse(process.env.BATCH_HEADERS!) as Record<string, string>;
  const request = (h: Record<string, string>) =>
    gatewayRoute.GET(new Request(`http://${host}${process.env.BATCH_PATH}`, { headers: { ...h, host } }), { params: Promise.resolve({}) });
  if (process.env.BATCH_BARRIER) {
    // Warm up (the catalog, a database connection, the rails) with an unpaid call, then say so: the test sends `go` to
    // both racers at once, so their paid requests leave together.
    await (await request({})).arrayBuffer();
    console.log("ready");
  }
  await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
  const res = await request(headers);
  await res.arrayBuffer();
  await flushVoucherCaptures();
  console.log(`status ${res.status} ${res.headers.get("svc-billing") ?? ""}`);
  process.exit(0);
}

if (process.env.BATCH_CHILD === "claim") {
  const fault = process.env.BATCH_FAULT;
  const report = await claimVouchers({
    force: true,
    receivers: process.env.BATCH_RECEIVERS ? process.env.BATCH_RECEIVERS.split(",") : undefined,
    faults: { afterHashKept: fault === "after_hash_kept" ? die : undefined, beforeConfirm: fault === "before_confirm" ? die : undefined },
  });
  console.log(`claim ${JSON.stringify(report)}`);
  process.exit(0);
}
