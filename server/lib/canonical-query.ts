/**
 * Canonical form of a query string: pairs sorted by key then value, each part percent-encoded per RFC 3986.
 * Two URLs that mean the same request (reordered params, `%41` vs `A`, `+` vs `%20`) canonicalise equally,
 * which is what 402 challenge binding and upstream signatures compare.
 */
export function canonicalQuery(search: URLSearchParams | string): string {
  const params = typeof search === "string" ? new URLSearchParams(search.startsWith("?") ? search.slice(1) : search) : search;
  const pairs: [string, string][] = [];
  for (const [k, v] of params) pairs.push([k, v]);
  pairs.sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).join("&");
}

function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
