// Where the agent's bearer token travels (SERVICE.md part 5): `Authorization: Bearer <token>`, or
// `SVC-Agent-Authorization: Bearer <token>` when Authorization carries a payment (MPP `Payment`). Pure parsing;
// the outcome names the part 7 `invalid_token` reason when the headers are unusable.

export type AgentAuthorization =
  | { type: "none" }
  | { type: "token"; token: string; via: "authorization" | "agent-authorization" }
  | { type: "error"; reason: "malformed_agent_authorization" | "conflicting_agent_credentials" | "combined_authorization_unsupported"; detail: string };

export const AGENT_AUTHORIZATION_HEADER = "svc-agent-authorization";

// RFC 6750 b64token (RFC 7235 token68).
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
// A comma followed by what looks like another `Scheme credentials` pair.
const NEXT_CREDENTIAL = /,\s*(?=[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*(?:\s|$))/;

function bearerOf(value: string): { ok: true; token: string } | { ok: false } | null {
  const m = /^(\S+)(?:\s+(.*))?$/s.exec(value.trim());
  if (!m || m[1]!.toLowerCase() !== "bearer") return null;
  const token = (m[2] ?? "").trim();
  return token && TOKEN68.test(token) ? { ok: true, token } : { ok: false };
}

// One paid call reads its bearer several times (the rail's proof, the person's controls, the budgets): the last
// headers' outcome is kept, so the same strings are parsed once. The outcome is a pure function of them.
let last: { authorization: string | null; agentAuthorization: string | null; parsed: AgentAuthorization } | null = null;

export function parseAgentAuthorization(authorization: string | null, agentAuthorization: string | null): AgentAuthorization {
  if (last && last.authorization === authorization && last.agentAuthorization === agentAuthorization) return last.parsed;
  const parsed = Object.freeze(parseHeaders(authorization, agentAuthorization));
  last = { authorization, agentAuthorization, parsed };
  return parsed;
}

function parseHeaders(authorization: string | null, agentAuthorization: string | null): AgentAuthorization {
  let fromAuthorization: string | null = null;
  if (authorization !== null && authorization.trim() !== "") {
    const parts = authorization.split(NEXT_CREDENTIAL);
    if (parts.length > 1) {
      if (parts.some((p) => /^\s*bearer(\s|$)/i.test(p)))
        return {
          type: "error",
          reason: "combined_authorization_unsupported",
          detail: "Authorization carries exactly one credential; send the bearer token in SVC-Agent-Authorization",
        };
    } else {
      const b = bearerOf(authorization);
      if (b && !b.ok) return { type: "error", reason: "malformed_agent_authorization", detail: "Authorization must be exactly `Bearer <token>`" };
      if (b?.ok) fromAuthorization = b.token;
    }
  }
  let fromAgent: string | null = null;
  if (agentAuthorization !== null) {
    const b = bearerOf(agentAuthorization);
    if (!b?.ok || agentAuthorization.includes(","))
      return { type: "error", reason: "malformed_agent_authorization", detail: "SVC-Agent-Authorization must be exactly one `Bearer <token>`" };
    fromAgent = b.token;
  }
  if (fromAuthorization && fromAgent && fromAuthorization !== fromAgent)
    return { type: "error", reason: "conflicting_agent_credentials", detail: "Authorization and SVC-Agent-Authorization carry different tokens; send one" };
  if (fromAgent) return { type: "token", token: fromAgent, via: "agent-authorization" };
  if (fromAuthorization) return { type: "token", token: fromAuthorization, via: "authorization" };
  return { type: "none" };
}
