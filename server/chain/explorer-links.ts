// Links from a transaction hash to a block explorer, per network (CAIP-2). The seller may set their own URL format per
// network in Settings ({tx} is replaced by the hash); these defaults apply to networks they did not set. A format set
// to "" shows no link (a local chain has no explorer).
export const DEFAULT_EXPLORER_TX_URLS: Record<string, string> = {
  "eip155:8453": "https://basescan.org/tx/{tx}",
  "eip155:84532": "https://sepolia.basescan.org/tx/{tx}",
};

/** Networks the Settings page always offers a format for (the ones the wallet rails settle on), plus any set. */
export const KNOWN_NETWORKS: { network: string; name: string }[] = [
  { network: "eip155:8453", name: "Base" },
  { network: "eip155:84532", name: "Base Sepolia" },
];

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/** A format must be an https (or http, for a local explorer) URL with one {tx}; "" turns links off for the network. */
export function validExplorerFormat(format: string): boolean {
  if (format === "") return true;
  if (format.split("{tx}").length !== 2) return false;
  try {
    const u = new URL(format.replace("{tx}", `0x${"0".repeat(64)}`));
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
}

export function explorerTxUrl(formats: Record<string, string>, network: string | null, transaction: string | null): string | null {
  if (!network || !transaction || !TX_HASH.test(transaction)) return null;
  const format = Object.hasOwn(formats, network) ? formats[network]! : (DEFAULT_EXPLORER_TX_URLS[network] ?? "");
  return format ? format.replace("{tx}", transaction) : null;
}

/** A network's name for people (Base, not eip155:8453); its CAIP-2 id when it has no name here; null for none. */
export function chainName(network: string | null): string | null {
  if (!network) return null;
  return KNOWN_NETWORKS.find((n) => n.network === network)?.name ?? network;
}
