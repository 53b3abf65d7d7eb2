// GET /llms.txt: the storefront for a language model to read (llmstxt.org: a title, a one-paragraph summary, then
// sections of links). What is sold at what price, how to pay on each rail, how to connect over MCP, where the
// machine-readable documents are. Generated from the same price table as OpenAPI, the manifest, /.well-known/x402 and
// the MCP tool list; one line per priced operation (and per free data operation), in fixed forms a test reads back.
import type { Catalog } from "../catalog/catalog";
import { planPurchaseTerms } from "../catalog/plan-purchase-terms";
import { RAILS } from "../payments/rails";
import { FREE_TOOLS, listTools, TOOL_PRICE_META_KEY } from "./mcp-tools";
import { listDiscoverable, type DiscoverableOperation } from "./discoverable";
import { pricedOperations, type PaymentInfo } from "./price-table";

/** One priced operation's line: `- [GET /path](link): summary. 0.020000 USD per request, meter `m`, rails: a, b; MCP tool `t``. */
export const LLMS_OPERATION_LINE =
  /^- \[(GET|POST|PUT|PATCH|DELETE) (\S+)\]\(\S+\): .* (\d+\.\d{6}) USD per request, meter `([^`]+)`, rails: ([a-z0-9, ]+); MCP tool `([^`]*)`$/;
/** One free data operation's line (a $0 meter: served without payment): `- [GET /path](link): summary. Free, meter `m`; MCP tool `t``. */
export const LLMS_FREE_OPERATION_LINE = /^- \[(GET|POST|PUT|PATCH|DELETE) (\S+)\]\(\S+\): .* Free, no payment, meter `([^`]+)`; MCP tool `([^`]*)`$/;

// Markdown link text and table cells must not be broken by what a seller typed.
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

export function buildLlmsTxt(catalog: Catalog, origin: string): string {
  const priced = pricedOperations(catalog);
  const free = listDiscoverable(catalog).filter((op) => op.kind === "data" && op.meter?.priceMicros === 0n);
  const tools = listTools(catalog);
  const toolOf = new Map(tools.data.map((t) => [t.operation.key, t.name]));
  const services = new Map(catalog.services.map((s) => [s.slug, s]));
  const bySlug = new Map<string, { op: DiscoverableOperation; info: PaymentInfo | null }[]>();
  for (const p of [...priced, ...free.map((op) => ({ op, info: null }))]) bySlug.set(p.op.service.slug, [...(bySlug.get(p.op.service.slug) ?? []), p]);

  const lines: string[] = [
    `# ${oneLine(catalog.seller.name)}`,
    "",
    "> Pay-per-request market and economic data for AI agents, over HTTP and MCP. There are no API keys: an unpaid call to a " +
      "priced operation answers with one signed payment challenge offered on every rail that takes its price, and the same call " +
      `retried with the proof is served. Rails: ${RAILS.map((r) => r.name).join(", ")}. Prices are USD per request; ` +
      `${origin}/manifest.json is authoritative.`,
    "",
    `Catalog version ${catalog.seller.catalogVersion}. Amounts are USD with six decimals; USDC on Base (eip155:8453) has six decimals, so 0.020000 USD is 20000 base units.`,
    "",
  ];

  for (const [slug, ops] of bySlug) {
    const s = services.get(slug);
    lines.push(`## ${oneLine(s?.title ?? slug)}`, "");
    if (s?.description) lines.push(oneLine(s.description), "");
    for (const { op, info } of ops) {
      const link = `${origin}/openapi.json?path=${encodeURIComponent(op.path)}`;
      lines.push(
        info
          ? `- [${op.method} ${op.path}](${link}): ${oneLine(op.summary)}. ${info.priceUsd} USD per request, meter \`${info.meter}\`, ` +
              `rails: ${info.protocols.join(", ")}; MCP tool \`${toolOf.get(op.key) ?? ""}\``
          : `- [${op.method} ${op.path}](${link}): ${oneLine(op.summary)}. Free, no payment, meter \`${op.meter!.key}\`; MCP tool \`${toolOf.get(op.key) ?? ""}\``,
      );
    }
    lines.push("");
  }

  const plans = catalog.plans.filter((p) => p.kind === "credit");
  if (plans.length) {
    lines.push("## Plans (prepaid credit)", "");
    for (const p of plans) {
      const t = planPurchaseTerms(p);
      lines.push(
        `- [${oneLine(p.name)}](${origin}/plans/${p.id}/purchase): ${oneLine(p.description)} Meters: ${p.meterKeys.join(", ")}. ` +
          `Buy ${t.minimumUsd ?? "any"} to ${t.maximumUsd ?? "any"} USD (card from ${t.cardMinimumUsd} USD); credit lasts ${t.creditValidityDays} days.`,
      );
    }
    lines.push(
      "",
      `Buying needs an agent credential: register at ${origin}/agent/identity, exchange at ${origin}/oauth2/token, then POST the purchase with the bearer and pay its 402.`,
      "",
    );
  }

  lines.push("## How to pay", "");
  // Each rail's own sentence, which usually names it first ("x402: sign the USDC offer ...").
  for (const r of RAILS) lines.push(r.howToPay.toLowerCase().startsWith(r.name) ? `- ${oneLine(r.howToPay)}.` : `- ${r.name}: ${oneLine(r.howToPay)}.`);
  lines.push(
    "",
    "A request carries exactly one payment proof. `@x402/fetch` caps one payment at 1 USD unless the client raises `maxAmountPerPayment`; " +
      "mppx's `evm.charge` client must be given the token it may pay (`currencies: [evm.assets.base.USDC]`).",
    "",
  );

  lines.push(
    "## MCP",
    "",
    `- Endpoint: ${origin}/mcp (Streamable HTTP, stateless: no session to keep). Tools: ${[...tools.free, ...tools.data].map((t) => `\`${t.name}\``).join(", ")}.`,
    `- Free tools: ${Object.values(FREE_TOOLS)
      .map((t) => `\`${t.name}\` (${oneLine(t.title.toLowerCase())})`)
      .join(", ")}.`,
    `- Each data tool states its price in its description and in \`_meta["${TOOL_PRICE_META_KEY}"]\`. Called without payment it answers with a tool ` +
      "result (`isError: true`) carrying x402's payment requirements as structured content and MPP's challenges in `_meta[\"org.paymentauth/payment-required\"]`.",
    '- Pay with MPP: retry the call with the credential in `params._meta["org.paymentauth/credential"]` (mppx `McpClient.wrap` does it); the receipt comes back in `_meta["org.paymentauth/receipt"]`.',
    '- Pay with x402: retry with the payment payload in `params._meta["x402/payment"]`; the settlement comes back in `_meta["x402/payment-response"]`.',
    "- Pay from plan credit: connect with `Authorization: Bearer <agent access token>` on the MCP HTTP requests; a plan covering the meter pays.",
    "",
  );

  lines.push(
    "## Discovery",
    "",
    `- [OpenAPI 3.1](${origin}/openapi.json): every operation, parameters and responses; \`x-payment-info\` prices (search with ?q=).`,
    `- [Manifest](${origin}/manifest.json): authoritative prices, meters, plans, payment rails.`,
    `- [x402 discovery](${origin}/.well-known/x402): the x402 manifest (HTTP routes and MCP tools).`,
    `- [Guide](${origin}/vendor/agent/guide?goal=daily%20stock%20prices): free advice for a goal.`,
    `- [OAuth protected resource](${origin}/.well-known/oauth-protected-resource) and [authorization server](${origin}/.well-known/oauth-authorization-server): agent credentials.`,
    "",
  );
  return lines.join("\n");
}
