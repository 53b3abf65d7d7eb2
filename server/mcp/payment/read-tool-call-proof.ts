// A tool call's payment proof, turned into the request headers the rails registry reads today, so MCP tool calls are
// paid by exactly the code that pays HTTP calls (server/payments/rails: readPaymentProof, then the rail's accept). Each
// rail says where its proof rides and which headers it becomes (its `mcp` bindings, server/payments/rails/rail.ts:
// MPP's credential, x402's payload, a paid card checkout's id); this file names none of them. The agent's bearer rides
// on the MCP HTTP request (Authorization: Bearer, or SVC-Agent-Authorization when Authorization carries a payment).
// No I/O. A `_meta` value that is not the binding's object is a clear refusal in that binding's terms (never a 5xx);
// whether a well-formed proof is valid is the rails' business, as over HTTP.
import { AppError } from "../../errors";
import { AGENT_AUTHORIZATION_HEADER, parseAgentAuthorization } from "../../identity/parse-agent-authorization";
import { mcpBindings } from "../../payments/rails";
import type { Binding } from "./bindings";

export type ToolCallProof = { type: "read"; headers: Headers; binding: Binding } | { type: "malformed"; binding: string; error: AppError };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `meta`: the tool call's `params._meta` as received; `http`: the MCP HTTP request's headers (whose bearer the MCP
 * route has already verified). The headers returned hold nothing else of the HTTP request.
 */
export function readToolCallProof(meta: unknown, http: Headers): ToolCallProof {
  const m = isObject(meta) ? meta : {};
  const headers = new Headers();
  let first: string | null = null;
  for (const { binding } of mcpBindings()) {
    const value = m[binding.metaKey];
    if (value === undefined) continue;
    const read = binding.toHeaders(value);
    if (read instanceof AppError) return { type: "malformed", binding: binding.name, error: read };
    for (const [name, v] of read) headers.set(name, v);
    first ??= binding.name;
  }

  // The agent's bearer rides on the MCP HTTP request (MCP authorization). It keeps SERVICE.md part 5's place: beside an
  // MPP credential it moves to SVC-Agent-Authorization, as an HTTP client sends it.
  const bearer = parseAgentAuthorization(http.get("authorization"), http.get(AGENT_AUTHORIZATION_HEADER));
  const agentHeader = http.get(AGENT_AUTHORIZATION_HEADER);
  if (agentHeader !== null) headers.set(AGENT_AUTHORIZATION_HEADER, agentHeader);
  if (bearer.type === "token" && bearer.via === "authorization") {
    if (headers.has("authorization")) {
      if (agentHeader === null) headers.set(AGENT_AUTHORIZATION_HEADER, `Bearer ${bearer.token}`);
    } else headers.set("authorization", `Bearer ${bearer.token}`);
  }

  return { type: "read", headers, binding: first ?? (bearer.type === "token" ? "bearer" : "none") };
}
