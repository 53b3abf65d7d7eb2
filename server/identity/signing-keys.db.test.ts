import { afterEach, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { resetEnvForTests } from "../env";
import { ACCESS_TOKEN_TYP } from "./constants";
import { issueAccessToken, verifyOwnToken } from "./issue-tokens";
import { currentSigningKey, forgetSigningKeysForTests, publicJwks } from "./signing-keys";
import { makeStore, postJson } from "../testing/identity-harness";

describe("signing keys", () => {
  it("are stored encrypted, rotate after 30 days, and the previous key stays published", async () => {
    const first = await currentSigningKey();
    const row = await db.identitySigningKey.findUniqueOrThrow({ where: { kid: first.kid } });
    expect(row.privateKeyEnc).not.toContain('"d"');
    expect(JSON.stringify(row.publicJwk)).not.toContain('"d"');
    const before = await issueAccessToken(
      { sub: "agt_x", sid: "sel_x", agent_type: "anonymous", agent_status: "unclaimed" },
      { issuer: "http://x", notAfter: null },
    );

    // Age every key past the rotation period: the next use makes a new one.
    await db.identitySigningKey.updateMany({ data: { createdAt: new Date(Date.now() - 31 * 86400_000) } });
    forgetSigningKeysForTests();
    const second = await currentSigningKey();
    expect(second.kid).not.toBe(first.kid);
    const jwks = await publicJwks();
    expect(jwks.keys.map((k) => k.kid)).toEqual([second.kid, first.kid]);
    expect(jwks.keys.every((k) => !("d" in k))).toBe(true);
    // A token signed a moment before the rotation still verifies.
    expect((await verifyOwnToken(before.token, ACCESS_TOKEN_TYP)).type).toBe("valid");
  });
});

describe("registration switches", () => {
  afterEach(() => {
    delete process.env.IDENTITY_ANONYMOUS_REGISTRATION;
    delete process.env.IDENTITY_SERVICE_AUTH_REGISTRATION;
    resetEnvForTests();
  });
  it("anonymous and service_auth can be turned off", async () => {
    const store = await makeStore("switches");
    process.env.IDENTITY_ANONYMOUS_REGISTRATION = "off";
    process.env.IDENTITY_SERVICE_AUTH_REGISTRATION = "off";
    resetEnvForTests();
    const a = await postJson(store, "/agent/identity", { type: "anonymous" });
    expect(a.status).toBe(403);
    expect(a.body.error).toBe("anonymous_registration_disabled");
    expect((await postJson(store, "/agent/identity", { type: "service_auth", login_hint: "x@example.com" })).body.error).toBe(
      "service_auth_registration_disabled",
    );
    const meta = await store.fetch(`${store.origin}/.well-known/oauth-authorization-server`).then((r) => r.json());
    expect(meta.agent_auth.identity_types_supported).toEqual(["identity_assertion", "refresh"]);
  });
});
