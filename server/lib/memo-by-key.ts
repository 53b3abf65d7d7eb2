// A pure function of a string remembered per key, for what a hot path would otherwise work out again on every call
// from the same few inputs (an origin's host, say). Bounded: past `max` keys it forgets them all and starts afresh.

export function memoByKey<T>(fn: (key: string) => T, max = 1_000): (key: string) => T {
  const seen = new Map<string, T>();
  return (key) => {
    if (seen.has(key)) return seen.get(key)!;
    if (seen.size >= max) seen.clear();
    const value = fn(key);
    seen.set(key, value);
    return value;
  };
}
