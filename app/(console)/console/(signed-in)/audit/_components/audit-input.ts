// The audit log's query from its URL, the same for the server's prefetch and the browser.

/** The log's filters, in the URL (?action=&target=&actor=&from=&to=). */
export const auditInput = (params: URLSearchParams) => ({
  actions: params.get("action") ? [params.get("action")!] : undefined,
  actorId: params.get("actor") || undefined,
  targetType: params.get("target") || undefined,
  from: params.get("from") || undefined,
  to: params.get("to") || undefined,
});
