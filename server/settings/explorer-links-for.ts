// A seller's transaction links: their formats from Settings over the built-in defaults, as one function to call per row.
import { explorerTxUrl } from "../chain/explorer-links";
import { findSellerSettings } from "./settings.queries";

export async function explorerLinksFor(sellerId: string): Promise<(network: string | null, transaction: string | null) => string | null> {
  const { explorerTxUrls } = await findSellerSettings(sellerId);
  return (network, transaction) => explorerTxUrl(explorerTxUrls, network, transaction);
}
