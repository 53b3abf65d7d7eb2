// Revoking a credential for good, by its person (their controls) or by the agent holding one of its tokens (RFC 7009
// /oauth2/revoke, revoke-token.ts): the credential row, every live refresh token, in one transaction, and this instance
// forgets at once (others at commit, by the trigger's notification). Nothing undoes it: the agent registers anew.
// Everything that checks the row refuses it from then on: the token exchange and refresh (invalid_grant,
// invalid_refresh_token), bearer routes and /mcp (invalid_token), plan credit (its draw's statement), and every paid call
// that carries it, on any rail (admit-paid-call.ts).
import { AppError } from "../errors";
import { revokeCredentialRow } from "./controls.queries";
import { forgetControls } from "./credential-controls";
import type { Person } from "./freeze-credential";

export async function revokeCredential(person: Person, credentialId: string): Promise<void> {
  const moved = await revokeCredentialRow({ credentialId, sellerId: person.sellerId, humanId: person.humanId, via: "person" });
  if (!moved) throw new AppError("not_found", { detail: "no live agent credential of yours has that id at this storefront" });
  forgetControls(`c:${credentialId}`);
}

/** The agent's own revocation (RFC 7009): true when revoked now, false when it already was. */
export async function revokeCredentialByToken(credentialId: string, sellerId: string): Promise<boolean> {
  const moved = await revokeCredentialRow({ credentialId, sellerId, humanId: null, via: "token_revocation" });
  forgetControls(`c:${credentialId}`);
  return moved;
}
