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

describe("proxyUpstream, an in-process upstream's validated call (`direct`)", () => {
  const PARAMETERS = { contract: { key: "t" } as never, pathParams: {}, path: {}, query: { a: 1 } };
  const signed: string[] = [];
  const direct: unknown[] = [];
  let answer: () => Promise<{ status: number; headers: [string, string][]; text: string } | null>;
  registerLocalUpstream(
    "/direct-upstream-for-tests",
    async (req) => {
      signed.push(req.headers.get("svc-gateway-signature") ?? "unsigned");
      return json({ signed: true }, { status: 401 });
    },
    async (call) => {
      direct.push(call);
      return answer();
    },
  );
  const call = (parameters?: typeof PARAMETERS, headers = new Headers()) =>
    proxyUpstream({
      url: new URL(`http://127.0.0.1:${env().PORT}/direct-upstream-for-tests/x?a=1`),
      method: "GET",
      signingSecret: "s".repeat(32),
      requestHeaders: headers,
      origin: "https://shop.example",
      parameters,
      timeoutMs: 200,
    });

  it("answers a validated call with the upstream's text and headers, never sending the signed request", async () => {
    signed.length = direct.length = 0;
    answer = async () => ({
      status: 200,
      headers: [
        ["content-type", "application/json; charset=utf-8"],
        ["svc-usage", "bars=2"],
        ["set-cookie", "x=1"],
      ],
      text: '{"a":1}',
    });
    const r = await call(PARAMETERS);
    if (r.type !== "response") throw new Error(r.type);
    expect([r.status, r.text, new TextDecoder().decode(r.body), r.usageHeader]).toEqual([200, '{"a":1}', '{"a":1}', "bars=2"]);
    // Our headers and hop-by-hop ones are dropped as from any upstream.
    expect([...r.headers]).toEqual([["content-type", "application/json; charset=utf-8"]]);
    expect(direct).toEqual([
      {
        method: "GET",
        url: new URL(`http://127.0.0.1:${env().PORT}/direct-upstream-for-tests/x?a=1`),
        signingSecret: "s".repeat(32),
        origin: "https://shop.example",
        parameters: PARAMETERS,
      },
    ]);
    expect(signed).toEqual([]);
  });

  it("sends the signed request when the upstream declines the call, or when nothing validated it", async () => {
    signed.length = direct.length = 0;
    answer = async () => null;
    for (const parameters of [PARAMETERS, undefined]) {
      const r = await call(parameters);
      expect(r.type === "response" && [r.status, r.text]).toEqual([401, '{"signed":true}']);
    }
    expect(direct).toHaveLength(1);
    expect(signed).toEqual([expect.stringMatching(/^v1=[0-9a-f]{64}$/), expect.stringMatching(/^v1=[0-9a-f]{64}$/)]);
  });

  it("answers a thrown error as the signed request's would be, and keeps the deadline", async () => {
    answer = async () => {
      throw new Error("boom");
    };
    const failed = await call(PARAMETERS, new Headers({ "x-request-id": "req-direct-1" }));
    expect(failed.type === "response" && [failed.status, JSON.parse(failed.text!)]).toEqual([
      500,
      expect.objectContaining({ error: "internal_error", request_id: "req-direct-1" }),
    ]);
    answer = () => new Promise(() => {});
    expect((await call(PARAMETERS)).type).toBe("timeout");
  });
});
