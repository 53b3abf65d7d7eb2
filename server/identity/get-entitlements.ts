// GET /agent/entitlements: who the bearer is, which credentials share its entitlements (all credentials the
// same human claimed at this storefront) and their active plans. Plans arrive with the plans work: until then
// `plans` is always empty; that work fills it from the credential ids listed here.
import { findCredentialsOfHuman, findHumanById } from "./identity.queries";
import type { AgentPrincipal } from "./require-agent";

export type EntitlementsBody = {
  agent: { id: string; type: string; claimed: boolean; human: { id: string; email: string } | null };
  credentials: string[];
  plans: unknown[];
};

export async function getEntitlements(agent: AgentPrincipal): Promise<EntitlementsBody> {
  const human = agent.humanId ? await findHumanById(agent.humanId) : null;
  const linked = human ? (await findCredentialsOfHuman(human.id, agent.sellerId)).map((c) => c.id) : [];
  const credentials = [agent.credentialId, ...linked.filter((id) => id !== agent.credentialId)];
  return {
    agent: { id: agent.credentialId, type: agent.kind, claimed: agent.claimed, human },
    credentials,
    plans: [],
  };
}
