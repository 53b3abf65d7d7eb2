// What the paid path checks of a credential (revoked, frozen, its person, approval threshold, whether a budget applies), cached per instance
// and kept true by PostgreSQL: a trigger announces every change on channel `human_controls_changed` at commit, and each
// instance drops what it cached for that credential (or that person, or that seller's wallets). The cache is used only
// while the instance is listening; an entry also lives at most CONTROLS_CACHE_TTL_MS, which bounds how stale it can be if
// a notification were ever lost with the connection still up. A read that raced a change is not cached (generation
// check), so a stale row never sticks. The writer's own instance forgets at once, without waiting for its notification.
import { verifyAccessToken } from "../identity/verify-access-token";
import { AGENT_AUTHORIZATION_HEADER, parseAgentAuthorization } from "../identity/parse-agent-authorization";
import { onBudgetChange } from "../budgets/budget-changes";
import { forgetWalletCaps } from "../wallet-caps/reserve-wallet-cap";
import { findCredentialControls, listenForControlChanges, type CredentialControlsRow } from "./controls.queries";

/** The worst case of a lost notification: an entry is read again after this long. */
export const CONTROLS_CACHE_TTL_MS = 30_000;
const MAX_ENTRIES = 50_000;

type Entry = { row: CredentialControlsRow | null; at: number };
type ControlsCache = { started: boolean; listening: boolean; generation: number; byCredential: Map<string, Entry> };

// On globalThis: Next.js may load this module more than once (route bundles, instrumentation); one cache per process.
const state: ControlsCache = ((globalThis as unknown as { __controlsCache?: ControlsCache }).__controlsCache ??= {
  started: false,
  listening: false,
  generation: 0,
  byCredential: new Map(),
});

/**
 * Drop what a message names: `c:<credential>`, `h:<human>` (all of a person's credentials), `w:<seller>` (its capped
 * wallets, server/wallet-caps); `g:<grant>` (a grant ended early) names no control and is the leases' alone; anything
 * else: everything.
 */
export function forgetControls(payload: string): void {
  if (payload.startsWith("g:")) return;
  state.generation++;
  const [kind, id] = [payload.slice(0, 2), payload.slice(2)];
  if (kind === "c:") state.byCredential.delete(id);
  else if (kind === "h:") {
    for (const [k, e] of state.byCredential) if (e.row?.humanId === id) state.byCredential.delete(k);
  } else if (kind === "w:") forgetWalletCaps(id);
  else {
    state.byCredential.clear();
    forgetWalletCaps(null);
  }
}

// A budget set on this instance is forgotten at once (its trigger tells the others).
onBudgetChange(forgetControls);

function ensureListening(): void {
  if (state.started) return;
  state.started = true;
  listenForControlChanges(forgetControls, (s) => {
    // Whatever was cached before (re)subscribing may have missed a notification.
    forgetControls("");
    state.listening = s === "listening";
  });
}

/** Whether the caches kept true by this channel may serve from memory now. */
export function controlsListening(): boolean {
  ensureListening();
  return state.listening;
}

/** A credential's controls: from memory while listening and fresh, else one read. Null: no such credential. */
export async function credentialControls(credentialId: string): Promise<CredentialControlsRow | null> {
  ensureListening();
  const now = Date.now();
  const hit = state.listening ? state.byCredential.get(credentialId) : undefined;
  if (hit && now - hit.at < CONTROLS_CACHE_TTL_MS) return hit.row;
  const generation = state.generation;
  const row = await findCredentialControls(credentialId);
  if (state.listening && state.generation === generation) {
    if (state.byCredential.size >= MAX_ENTRIES) state.byCredential.clear();
    state.byCredential.set(credentialId, { row, at: now });
  }
  return row;
}

/**
 * The agent credential a paid call carries (its bearer, wherever part 5 puts it), if the token verifies for this
 * storefront; null otherwise (a call without one, or with one the rails refuse on their own).
 */
export async function carriedCredential(proofs: Headers, sellerId: string): Promise<string | null> {
  const parsed = parseAgentAuthorization(proofs.get("authorization"), proofs.get(AGENT_AUTHORIZATION_HEADER));
  if (parsed.type !== "token") return null;
  const v = await verifyAccessToken(parsed.token);
  return v.type === "valid" && v.claims.sid === sellerId ? v.claims.sub : null;
}
