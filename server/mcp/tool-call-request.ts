// A data tool call is the HTTP call it stands for: its arguments become the operation's path and query, and the call is
// priced, validated and bound exactly as that request would be (server/gateway/paid-call.ts, through a request context
// for the operation's URL). So a tool call and an HTTP call of the same operation and parameters cost the same, are
// refused for the same bad parameters, and answer challenges bound to the same request.
import type { DataTool } from "../discovery/mcp-tools";
import { invalidParameter } from "../errors";
import type { RouteContext } from "../http/route";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The operation's URL for these arguments (path parameters in the path, the rest in the query), or a 400 naming the argument. */
export function toolCallUrl(tool: DataTool, args: unknown, base: URL): URL {
  const given = isObject(args) ? args : {};
  if (args !== undefined && args !== null && !isObject(args)) throw invalidParameter("arguments", "arguments must be an object");
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(given)) {
    if (!(name in tool.inputSchema.properties))
      throw invalidParameter(name, `${name} is not an argument of ${tool.name} (it takes ${Object.keys(tool.inputSchema.properties).join(", ") || "none"})`);
    if (value === null || value === undefined) continue;
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean")
      throw invalidParameter(name, `${name} must be a string, a number or a boolean`);
    values.set(name, String(value));
  }
  const pathNames = new Set<string>();
  const path = tool.operation.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    pathNames.add(name);
    const v = values.get(name);
    if (v === undefined || v === "") throw invalidParameter(name, `${name} is required`);
    return encodeURIComponent(v);
  });
  const url = new URL(path, base);
  for (const [name, v] of values) if (!pathNames.has(name)) url.searchParams.set(name, v);
  return url;
}

/** The route context of the HTTP request a tool call stands for: same storefront and origin, the proof headers only. */
export function toolCallContext(ctx: RouteContext, tool: DataTool, args: unknown, proofHeaders: Headers): RouteContext {
  const url = toolCallUrl(tool, args, ctx.url);
  return { ...ctx, url, req: new Request(url, { method: tool.operation.method, headers: proofHeaders }) };
}
