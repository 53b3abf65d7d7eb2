// Child process for the crash-recovery test: makes one paid call through the gateway route with
// GATEWAY_FAULT set, so the process dies mid-pipeline (exit code 86) with the state so far durably recorded.
import * as gatewayRoute from "../../app/api/v1/[...path]/route";

const host = process.env.CRASH_HOST!;
const headers = JSON.parse(process.env.CRASH_PROOF_HEADERS!) as Record<string, string>;
const req = new Request(`http://${host}${process.env.CRASH_PATH}`, { headers: { ...headers, host } });
const res = await gatewayRoute.GET(req, { params: Promise.resolve({}) });
// Reaching this line means the fault point was not hit.
console.log(`served ${res.status}`);
process.exit(0);
