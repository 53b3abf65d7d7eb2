// Which credentials share an agent's entitlements: its own, and every credential the same human claimed at this
// storefront (SERVICE.md part 4: "for this credential plus all credentials claimed by the same human").
import { findCredentialsOfHuman, findHumanById } from "./credentials.queries";
import type { AgentPrincipal } from "./require-agent";

export type LinkedCredentials = { human: { id: string; email: string } | null; credentials: string[] };

export async function findLinkedCredentials(agent: AgentPrincipal): Promise<LinkedCredentials> {
  const human = agent.humanId ? await findHumanById(agent.humanId) : null;
  const linked = human ? (await findCredentialsOfHuman(human.id, agent.sellerId)).map((c) => c.id) : [];
  return { human, credentials: [agent.credentialId, ...linked.filter((id) => id !== agent.credentialId)] };
}
