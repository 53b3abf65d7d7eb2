// The human side of the claim (the page at attempt.verification_uri): see what is being claimed, confirm it
// (and read a user code for the agent) or deny it. The human is a signed-in next-auth "human" session.
import { USER_CODE_TTL_MS } from "./constants";
import { isPlusAliased } from "./email";
import { confirmAttempt, denyAttempt, findAttemptByLinkHash } from "./claim-attempts.queries";
import { hashSecret, newUserCode } from "./secrets";
import { userCodeHash } from "./complete-claim";

export type ClaimPageView = {
  attemptId: string;
  sellerName: string;
  credentialId: string;
  credentialKind: string;
  loginHint: string | null;
  /** open: can be confirmed; confirmed: a code was shown; denied/completed/expired/claimed: nothing to do. */
  state: "open" | "confirmed" | "denied" | "completed" | "expired" | "claimed" | "locked";
  confirmedBy: string | null;
  expiresAt: Date;
  /** For "Is this your agent?": when the agent registered, and when it dies if nobody claims it. */
  agentRegisteredAt: Date;
  agentExpiresAt: Date | null;
};

export type HumanPrincipal = { id: string; email: string };

export async function viewClaimAttempt(linkToken: string): Promise<ClaimPageView | null> {
  if (!linkToken || linkToken.length > 128) return null;
  const a = await findAttemptByLinkHash(hashSecret(linkToken));
  if (!a) return null;
  const now = new Date();
  const credentialDead = a.credential.expiresAt !== null && a.credential.expiresAt <= now;
  let state: ClaimPageView["state"];
  if (a.status === "completed") state = "completed";
  else if (a.credential.status === "claimed") state = "claimed";
  else if (a.status === "denied") state = "denied";
  else if (a.status === "locked") state = "locked";
  else if (a.expiresAt <= now || credentialDead) state = "expired";
  else state = a.status === "confirmed" ? "confirmed" : "open";
  return {
    attemptId: a.id,
    sellerName: a.credential.seller.name,
    credentialId: a.credential.id,
    credentialKind: a.credential.kind,
    loginHint: a.loginHint,
    state,
    confirmedBy: a.humanId,
    expiresAt: a.expiresAt,
    agentRegisteredAt: a.credential.createdAt,
    agentExpiresAt: a.credential.expiresAt,
  };
}

export type ConfirmOutcome = { type: "confirmed"; userCode: string; expiresAt: Date } | { type: "refused"; detail: string };

/** Confirm: a new user code each time (only its hash is kept), so reopening the page can show a fresh one. */
export async function confirmClaimAttempt(linkToken: string, human: HumanPrincipal): Promise<ConfirmOutcome> {
  const view = await viewClaimAttempt(linkToken);
  if (!view) return { type: "refused", detail: "this claim link is not valid" };
  if (view.state !== "open" && !(view.state === "confirmed" && view.confirmedBy === human.id))
    return { type: "refused", detail: `this claim is ${view.state}` };
  if (isPlusAliased(human.email)) return { type: "refused", detail: "plus-aliased addresses cannot claim agents" };
  if (view.loginHint && view.loginHint !== human.email.toLowerCase())
    return { type: "refused", detail: `this claim is for ${view.loginHint}; sign in with that address` };
  const code = newUserCode();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + USER_CODE_TTL_MS);
  const ok = await confirmAttempt({
    id: view.attemptId,
    humanId: human.id,
    userCodeHash: userCodeHash(view.attemptId, code),
    userCodeExpiresAt: expiresAt,
    now,
  });
  return ok ? { type: "confirmed", userCode: code, expiresAt } : { type: "refused", detail: "this claim changed meanwhile; reload the page" };
}

export async function denyClaimAttempt(linkToken: string, human: HumanPrincipal): Promise<boolean> {
  const view = await viewClaimAttempt(linkToken);
  if (!view || (view.state !== "open" && view.state !== "confirmed")) return false;
  if (view.loginHint && view.loginHint !== human.email.toLowerCase()) return false;
  return denyAttempt({ id: view.attemptId, humanId: human.id, now: new Date() });
}
