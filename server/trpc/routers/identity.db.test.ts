// The console's trusted identity providers: every change with its audit row in the same transaction, scoped
// to the signed-in seller, bad input refused with nothing written, private key members never stored, the
// authorization server metadata following the enabled flag, and an ID-JAG signed with a key added here
// accepted by POST /agent/identity.
import { exportJWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db/client";
import { isAppError } from "../../errors";
import { addIdentityProvider, removeIdentityProvider } from "../../identity/manage-identity-providers";
import { authorizationServerMetadata } from "../../identity/discovery";
import { makeStore, useDevOutbox } from "../../testing/identity-harness";
import { makeIdJagProvider, mintIdJag, registerWithIdJag, uniq, type IdJagProvider } from "../../testing/id-jag";
import { createCaller, sessionFor } from "../../testing/trpc";

type Store = Awaited<ReturnType<typeof makeStore>> & { userId: string; caller: ReturnType<typeof createCaller> };
async function store(label: string): Promise<Store> {
  const s = await makeStore(label);
  const user = await db.sellerUser.findFirstOrThrow({ where: { sellerId: s.sellerId }, select: { id: true } });
  return { ...s, userId: user.id, caller: createCaller(sessionFor(user.id, s.sellerId)) };
}

const auditRows = (sellerId: string) => db.auditLog.findMany({ where: { sellerId, targetType: "trusted_identity_provider" }, orderBy: { createdAt: "asc" } });
const providerRows = (sellerId: string) => db.trustedIdentityProvider.findMany({ where: { sellerId } });
const trustedIssuers = async (s: Store) => (await authorizationServerMetadata({ sellerId: s.sellerId, origin: s.origin })).agent_auth.trusted_issuers;
const issuer = (name: string) => `https://${name}-${uniq()}.idp.test`;

let a: Store;
let b: Store;
let idp: IdJagProvider;

beforeAll(async () => {
  useDevOutbox();
  a = await store("idp-a");
  b = await store("idp-b");
  idp = await makeIdJagProvider(issuer("console"), "console-key-1");
});

describe("identity router: trusted providers", () => {
  it("adds a provider with an inline JWKS: listed, audited in the same transaction, private members dropped", async () => {
    const privateJwk = { ...(await exportJWK(idp.privateKey)), kid: "console-key-1", alg: "ES256", use: "sig", oth: [{ r: "x", d: "y", t: "z" }], ext: true };
    expect(privateJwk.d).toBeTruthy();
    const added = await a.caller.identity.addProvider({ issuer: idp.issuer, jwks: { keys: [privateJwk] } });
    expect(added).toMatchObject({
      issuer: idp.issuer,
      enabled: true,
      keySourceLabel: "inline JWKS, 1 key",
      keySource: { type: "inline", keyCount: 1, kids: ["console-key-1"] },
    });
    expect(added.id).toMatch(/^tip_/);

    // Stored: exactly the public half.
    const [row] = (await providerRows(a.sellerId)).filter((r) => r.id === added.id);
    const stored = (row!.jwks as { keys: Record<string, unknown>[] }).keys[0]!;
    expect(Object.keys(stored).sort()).toEqual(["alg", "crv", "kid", "kty", "use", "x", "y"]);
    expect(stored).toMatchObject({ kty: "EC", crv: "P-256", x: idp.publicJwk.x, y: idp.publicJwk.y });

    // Audit: action, actor, before null, after with kid/kty only.
    const audits = (await auditRows(a.sellerId)).filter((r) => r.targetId === added.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      action: "identity_provider.add",
      actorId: a.userId,
      before: null,
      after: { issuer: idp.issuer, enabled: true, jwks: { keys: [{ kid: "console-key-1", kty: "EC" }] } },
    });
    expect(JSON.stringify(audits[0])).not.toContain(idp.publicJwk.x!);
    expect(JSON.stringify(audits[0])).not.toContain(privateJwk.d!);

    const list = await a.caller.identity.providers();
    expect(list.providers.find((p) => p.id === added.id)).toMatchObject({ issuer: idp.issuer, keySourceLabel: "inline JWKS, 1 key", enabled: true });
    expect(list.providers.find((p) => p.id === added.id)!.createdAt).toBe(row!.createdAt.toISOString());
    // The console's audit log shows it too.
    expect((await a.caller.audit.list()).entries.map((r) => r.action)).toContain("identity_provider.add");
  });

  it("disables, enables and removes a JWKS URL provider, one audit row per change, and the metadata follows", async () => {
    const iss = issuer("uri");
    const added = await a.caller.identity.addProvider({ issuer: iss, jwksUri: `${iss}/jwks.json` });
    expect(added).toMatchObject({ keySourceLabel: `${iss}/jwks.json`, keySource: { type: "jwks_uri", jwksUri: `${iss}/jwks.json` }, enabled: true });
    expect(await trustedIssuers(a)).toContain(iss);

    const off = await a.caller.identity.setProviderEnabled({ id: added.id, enabled: false });
    expect(off.enabled).toBe(false);
    expect(await trustedIssuers(a)).not.toContain(iss);
    // Setting the state it already has: no change, no audit row.
    await a.caller.identity.setProviderEnabled({ id: added.id, enabled: false });

    await a.caller.identity.setProviderEnabled({ id: added.id, enabled: true });
    expect(await trustedIssuers(a)).toContain(iss);

    expect(await a.caller.identity.removeProvider({ id: added.id })).toEqual({ id: added.id, issuer: iss });
    expect(await trustedIssuers(a)).not.toContain(iss);
    expect((await providerRows(a.sellerId)).some((r) => r.id === added.id)).toBe(false);
    expect((await a.caller.identity.providers()).providers.some((p) => p.id === added.id)).toBe(false);
    await expect(a.caller.identity.removeProvider({ id: added.id })).rejects.toMatchObject({ code: "NOT_FOUND" });

    const audits = (await auditRows(a.sellerId)).filter((r) => r.targetId === added.id);
    const described = { issuer: iss, jwksUri: `${iss}/jwks.json` };
    expect(audits.map((r) => ({ action: r.action, actorId: r.actorId, before: r.before, after: r.after }))).toEqual([
      { action: "identity_provider.add", actorId: a.userId, before: null, after: { ...described, enabled: true } },
      { action: "identity_provider.update", actorId: a.userId, before: { ...described, enabled: true }, after: { ...described, enabled: false } },
      { action: "identity_provider.update", actorId: a.userId, before: { ...described, enabled: false }, after: { ...described, enabled: true } },
      { action: "identity_provider.remove", actorId: a.userId, before: { ...described, enabled: true }, after: null },
    ]);
  });

  it("the change and its audit row commit together: a failing audit write leaves no change", async () => {
    // An actor id no seller user has: the audit row's foreign key fails inside the transaction.
    const iss = issuer("atomic");
    await expect(
      addIdentityProvider({ sellerId: a.sellerId, actorId: "usr_missing", provider: { issuer: iss, jwksUri: `${iss}/jwks.json` } }),
    ).rejects.toThrow();
    expect((await providerRows(a.sellerId)).some((r) => r.issuer === iss)).toBe(false);

    const kept = await a.caller.identity.addProvider({ issuer: iss, jwksUri: `${iss}/jwks.json` });
    await expect(removeIdentityProvider({ sellerId: a.sellerId, actorId: "usr_missing", id: kept.id })).rejects.toThrow();
    expect((await providerRows(a.sellerId)).some((r) => r.id === kept.id)).toBe(true);
    expect((await auditRows(a.sellerId)).filter((r) => r.targetId === kept.id).map((r) => r.action)).toEqual(["identity_provider.add"]);
  });

  it("another seller can neither see nor change the first seller's providers", async () => {
    const iss = issuer("scoped");
    const aProvider = await a.caller.identity.addProvider({ issuer: iss, jwksUri: `${iss}/jwks.json` });
    const bAuditsBefore = await db.auditLog.count({ where: { sellerId: b.sellerId } });

    expect((await b.caller.identity.providers()).providers.some((p) => p.id === aProvider.id || p.issuer === iss)).toBe(false);
    await expect(b.caller.identity.setProviderEnabled({ id: aProvider.id, enabled: false })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(b.caller.identity.removeProvider({ id: aProvider.id })).rejects.toMatchObject({ code: "NOT_FOUND" });

    const row = await db.trustedIdentityProvider.findUnique({ where: { id: aProvider.id } });
    expect(row).toMatchObject({ sellerId: a.sellerId, enabled: true });
    expect((await auditRows(a.sellerId)).filter((r) => r.targetId === aProvider.id).map((r) => r.action)).toEqual(["identity_provider.add"]);
    expect(await db.auditLog.count({ where: { sellerId: b.sellerId } })).toBe(bAuditsBefore);
    expect(await trustedIssuers(a)).toContain(iss);
    expect(await trustedIssuers(b)).not.toContain(iss);

    // The same issuer at B is B's own row, independent of A's.
    const bProvider = await b.caller.identity.addProvider({ issuer: iss, jwksUri: `${iss}/jwks.json`, enabled: false });
    expect(bProvider.id).not.toBe(aProvider.id);
    expect(await trustedIssuers(a)).toContain(iss);
    expect(await trustedIssuers(b)).not.toContain(iss);
  });

  it("refuses bad input with the schema's messages and writes nothing", async () => {
    const iss = issuer("bad");
    const jwks = { keys: [idp.publicJwk] };
    const cases: [string, Record<string, unknown>, string, string][] = [
      ["both jwksUri and jwks", { issuer: iss, jwksUri: `${iss}/jwks.json`, jwks }, "jwks", "give exactly one of jwksUri or jwks"],
      ["neither", { issuer: iss }, "jwks", "give exactly one of jwksUri or jwks"],
      ["an http JWKS URL", { issuer: iss, jwksUri: `http://${new URL(iss).host}/jwks.json` }, "jwksUri", "jwksUri must be an https URL"],
      ["a file: JWKS URL", { issuer: iss, jwksUri: "file:///etc/passwd" }, "jwksUri", "jwksUri must be an https URL"],
      ["a javascript: JWKS URL", { issuer: iss, jwksUri: "javascript:alert(1)" }, "jwksUri", "jwksUri must be an https URL"],
      ["an empty key set", { issuer: iss, jwks: { keys: [] } }, "jwks", ""],
      ["too many keys", { issuer: iss, jwks: { keys: Array.from({ length: 21 }, () => idp.publicJwk) } }, "jwks", "jwks may hold at most 20 keys"],
      ["an empty issuer", { issuer: "", jwks }, "issuer", ""],
    ];
    const providersBefore = (await providerRows(a.sellerId)).length;
    const auditsBefore = await db.auditLog.count({ where: { sellerId: a.sellerId } });
    for (const [name, input, field, message] of cases) {
      const err = await a.caller.identity.addProvider(input as never).then(
        () => null,
        (e: unknown) => e as { code: string; cause?: { flatten?: () => { fieldErrors: Record<string, string[]> } } },
      );
      expect(err, name).not.toBeNull();
      expect(err!.code, name).toBe("BAD_REQUEST");
      const fieldErrors = err!.cause!.flatten!().fieldErrors;
      expect(fieldErrors[field], name).toBeDefined();
      if (message) expect(fieldErrors[field], name).toContain(message);
      // The domain function validates on its own too (it is not only reachable through the router).
      await expect(addIdentityProvider({ sellerId: a.sellerId, actorId: a.userId, provider: input }), name).rejects.toSatisfy(
        (e) => isAppError(e) && e.code === "invalid_request",
      );
    }
    // An issuer the seller already trusts is refused, not silently replaced.
    const dup = await a.caller.identity.addProvider({ issuer: iss, jwksUri: `${iss}/jwks.json` });
    await expect(a.caller.identity.addProvider({ issuer: iss, jwks })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("already trusted"),
    });
    expect((await db.trustedIdentityProvider.findUniqueOrThrow({ where: { id: dup.id } })).jwks).toBeNull();

    expect((await providerRows(a.sellerId)).length).toBe(providersBefore + 1);
    expect(await db.auditLog.count({ where: { sellerId: a.sellerId } })).toBe(auditsBefore + 1);
    expect(await trustedIssuers(a)).toContain(iss);
    await expect(a.caller.identity.setProviderEnabled({ id: "", enabled: false })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("refuses callers without a seller session", async () => {
    const iss = issuer("anon");
    const anyProvider = (await a.caller.identity.providers()).providers[0]!;
    for (const caller of [createCaller({ session: null }), createCaller(sessionFor("hum_1", a.sellerId, "human"))]) {
      await expect(caller.identity.providers()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
      await expect(caller.identity.addProvider({ issuer: iss, jwksUri: `${iss}/jwks.json` })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
      await expect(caller.identity.setProviderEnabled({ id: anyProvider.id, enabled: !anyProvider.enabled })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
      await expect(caller.identity.removeProvider({ id: anyProvider.id })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    }
    expect((await providerRows(a.sellerId)).some((r) => r.issuer === iss)).toBe(false);
    expect(await db.trustedIdentityProvider.findUniqueOrThrow({ where: { id: anyProvider.id } })).toMatchObject({ enabled: anyProvider.enabled });
  });

  it("lists the storefront's hosts and the ID-JAG audience, read-only", async () => {
    const list = await a.caller.identity.providers();
    expect(list.hosts.map((h) => h.hostname)).toEqual([a.host]);
    expect(list.audience).toBeTruthy();
    expect((await b.caller.identity.providers()).hosts.map((h) => h.hostname)).toEqual([b.host]);
  });
});

describe("a provider added in the console is usable at once", () => {
  it("an ID-JAG signed with a key added as an inline JWKS registers through POST /agent/identity, until the provider is disabled", async () => {
    const c = await store("idp-e2e");
    const provider = await makeIdJagProvider(issuer("e2e"), "e2e-key-1");
    const email = `ada-${uniq()}@example.com`;

    // Before: the issuer is not trusted here.
    expect((await registerWithIdJag(c, await mintIdJag(provider, { claims: { email } }))).body.error).toBe("issuer_not_enabled");

    const added = await c.caller.identity.addProvider({ issuer: provider.issuer, jwks: { keys: [provider.publicJwk] } });
    const r = await registerWithIdJag(c, await mintIdJag(provider, { claims: { email } }));
    expect(r.status).toBe(201);
    expect(r.body.identity).toMatchObject({ type: "identity_assertion", status: "claimed", claimed: true, human: { email } });

    await c.caller.identity.setProviderEnabled({ id: added.id, enabled: false });
    expect((await registerWithIdJag(c, await mintIdJag(provider))).body.error).toBe("issuer_not_enabled");
  });
});
