// An in-process upstream's JSON answer is passed on as the text it was made from: the bytes a client receives, the
// bytes kept for a replay and the receipt's body hash are those of that text's UTF-8, as when the body was read.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { env } from "../env";
import { json } from "../http/respond";
import { bodyHash } from "../receipts/sign-receipt";
import { proxyUpstream, registerLocalUpstream } from "./proxy-upstream";
import { renderOutcome } from "./render-outcome";

const BODY = { ticker: "株式", note: "é \u2028 😀", bars: [1.5, -0, null] };

async function callLocal(prefix: string) {
  const url = new URL(`http://127.0.0.1:${env().PORT}${prefix}/x?a=1`);
  const r = await proxyUpstream({ url, method: "GET", signingSecret: "s".repeat(32), requestHeaders: new Headers(), origin: "http://127.0.0.1" });
  if (r.type !== "response") throw new Error(r.type);
  return r;
}

describe("proxyUpstream, in process", () => {
  it("passes a json() answer on as its text, with the same bytes, headers and hash as reading its body", async () => {
    registerLocalUpstream("/text-upstream-for-tests", async () => json(BODY, { headers: { etag: '"1"', "svc-usage": "bars=2" } }));
    const r = await callLocal("/text-upstream-for-tests");
    const bytes = new Uint8Array(await json(BODY).arrayBuffer());
    expect(r.text).toBe(JSON.stringify(BODY));
    expect(new Uint8Array(r.body)).toEqual(bytes);
    expect([r.status, r.headers.get("etag"), r.headers.get("svc-usage"), r.usageHeader]).toEqual([200, '"1"', null, "bars=2"]);
    expect(bodyHash(r.text!)).toBe(createHash("sha256").update(bytes).digest("base64url"));
    expect(bodyHash(r.text!)).toBe(bodyHash(r.body));
    const sent = renderOutcome({ type: "free", delivered: r });
    expect(new Uint8Array(await sent.arrayBuffer())).toEqual(bytes);
  });

  it("reads any other answer's body, as before", async () => {
    registerLocalUpstream("/bytes-upstream-for-tests", async () => new Response(JSON.stringify(BODY), { headers: { "content-type": "application/json" } }));
    const r = await callLocal("/bytes-upstream-for-tests");
    expect(r.text).toBeUndefined();
    expect(new Uint8Array(r.body)).toEqual(new TextEncoder().encode(JSON.stringify(BODY)));
  });
});
