// Registration with an ID-JAG (SERVICE.md part 5, identity_assertion): the jti burned, the human found or made, the
// credential born claimed (or pending when the email belongs to an account this provider identity is not linked to).
import { db, type Tx } from "../db/client";
import { newId } from "../lib/ids";
import { createPendingCredential, credentialSelect, type CredentialRow, type NewAttempt, type NewRefreshToken } from "./credentials.queries";

export type AssertedRegistration =
  | { type: "replay" }
  | { type: "claimed"; credential: CredentialRow; human: { id: string; email: string } }
  | { type: "interaction_required"; credential: CredentialRow };

/**
 * One transaction: burn the jti (a second use is a replay), then either create a claimed credential for the
 * human this provider identity maps to (or a new human), or, when the email already belongs to an account this
 * provider identity is not linked to, a pending credential whose claim the human must confirm.
 */
export async function registerAssertedCredential(input: {
  sellerId: string;
  issuer: string;
  subject: string;
  email: string;
  jti: string;
  jtiExpiresAt: Date;
  credentialId: string;
  refresh: NewRefreshToken;
  pending: { claimTokenHash: string; expiresAt: Date; attempt: NewAttempt };
}): Promise<AssertedRegistration> {
  return db.$transaction(async (tx: Tx) => {
    const burned = await tx.usedAssertionJti.createMany({
      data: [{ issuer: input.issuer, jti: input.jti, expiresAt: input.jtiExpiresAt }],
      skipDuplicates: true,
    });
    if (burned.count === 0) return { type: "replay" } as const;

    const link = await tx.humanIssuerLink.findUnique({
      where: { issuer_subject: { issuer: input.issuer, subject: input.subject } },
      select: { human: { select: { id: true, email: true } } },
    });
    let human = link?.human ?? null;
    if (!human) {
      const existing = await tx.human.findUnique({ where: { email: input.email }, select: { id: true } });
      if (existing) {
        const credential = await createPendingCredential(
          {
            id: input.credentialId,
            sellerId: input.sellerId,
            kind: "identity_assertion",
            loginHint: input.email,
            pendingIssuer: input.issuer,
            pendingSubject: input.subject,
            ...input.pending,
          },
          tx,
        );
        return { type: "interaction_required", credential } as const;
      }
      human = await tx.human.create({ data: { id: newId("hum"), email: input.email }, select: { id: true, email: true } });
      await tx.humanIssuerLink.create({ data: { issuer: input.issuer, subject: input.subject, humanId: human.id } });
    }
    const credential = await tx.agentCredential.create({
      data: { id: input.credentialId, sellerId: input.sellerId, kind: "identity_assertion", status: "claimed", humanId: human.id, claimedAt: new Date() },
      select: credentialSelect,
    });
    await tx.refreshToken.create({ data: { ...input.refresh, credentialId: credential.id } });
    return { type: "claimed", credential, human } as const;
  });
}
