import { describe, expect, it } from "vitest";
import { publicMembersOnly } from "./trusted-providers";

describe("publicMembersOnly", () => {
  it("keeps a pasted private key's public half only: RSA (with oth), EC and oct private parts all dropped", () => {
    const rsa = {
      kty: "RSA",
      kid: "r1",
      alg: "RS256",
      use: "sig",
      n: "nnn",
      e: "AQAB",
      d: "ddd",
      p: "ppp",
      q: "qqq",
      dp: "a",
      dq: "b",
      qi: "c",
      oth: [{ r: "x", d: "y", t: "z" }],
      vendor_secret: "s",
    };
    const ec = { kty: "EC", kid: "e1", crv: "P-256", x: "xxx", y: "yyy", d: "ddd" };
    const oct = { kty: "oct", kid: "o1", k: "secret" };
    expect(publicMembersOnly({ keys: [rsa, ec, oct] })).toEqual({
      keys: [
        { kty: "RSA", kid: "r1", alg: "RS256", use: "sig", n: "nnn", e: "AQAB" },
        { kty: "EC", kid: "e1", crv: "P-256", x: "xxx", y: "yyy" },
        { kty: "oct", kid: "o1" },
      ],
    });
  });
});
