import { describe, expect, it } from "vitest";
import { readProofHeader } from "./read-proof";

const authorization = {
  from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  to: "0xBcd4042DE499D14e55001CcbB24a551F3b954096",
  value: "20000",
  validAfter: "0",
  validBefore: "1900000000",
  nonce: `0x${"ab".repeat(32)}`,
};
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64");
const v2 = {
  x402Version: 2,
  accepted: {
    scheme: "exact",
    network: "eip155:8453",
    asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    amount: "20000",
    payTo: authorization.to,
    maxTimeoutSeconds: 300,
    extra: {},
  },
  payload: { signature: "0x12", authorization },
};
const v1 = { x402Version: 1, scheme: "exact", network: "base", payload: { signature: "0x12", authorization } };

describe("readProofHeader", () => {
  it("reads nothing when no header is sent", () => {
    expect(readProofHeader(new Headers())).toEqual({ type: "none" });
  });
  it("reads a v2 proof from PAYMENT-SIGNATURE and a v1 proof from X-PAYMENT", () => {
    expect(readProofHeader(new Headers({ "payment-signature": b64(v2) }))).toMatchObject({
      type: "x402",
      header: "PAYMENT-SIGNATURE",
      proof: { version: 2, authorization },
    });
    expect(readProofHeader(new Headers({ "x-payment": b64(v1) }))).toMatchObject({ type: "x402", header: "X-PAYMENT", proof: { version: 1, accepted: null } });
    expect(readProofHeader(new Headers({ "x-payment": b64({ ...v1, network: "eip155:8453" }) }))).toMatchObject({ type: "x402" });
  });
  it.each([
    ["not base64 JSON", "%%%"],
    ["another network", b64({ ...v1, network: "base-sepolia" })],
    ["another scheme", b64({ ...v2, accepted: { ...v2.accepted, scheme: "upto" } })],
    ["a bad nonce", b64({ ...v1, payload: { signature: "0x12", authorization: { ...authorization, nonce: "0x12" } } })],
    ["a permit2 payload", b64({ ...v2, payload: { signature: "0x12", permit2Authorization: {} } })],
    ["an unknown version", b64({ ...v1, x402Version: 3 })],
  ])("refuses %s", (_name, value) => {
    expect(readProofHeader(new Headers({ "x-payment": value })).type).toBe("invalid");
  });
});
