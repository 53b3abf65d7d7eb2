// The console's Settings: the storefront (read-only here: name, hosts, payout address, whether the signing secret is
// set), transaction links per network, the ETH/USD rate gas costs are shown at, the caps on answers before settlement,
// what payers read, and the bounds on leased plan credit.
import { findSellerById } from "../catalog/catalog.queries";
import { getCatalog } from "../catalog/catalog";
import { AppError } from "../errors";
import { microsToUsd } from "../lib/money";
import { DEFAULT_EXPLORER_TX_URLS, KNOWN_NETWORKS } from "../chain/explorer-links";
import { findCreditLease, findMerchantInfo, findSellerSettings, findUnsettledCaps } from "./settings.queries";
import { describeCreditLease } from "./update-credit-lease";
import { describeUnsettledCap } from "./update-unsettled-cap";

export async function getSellerSettings(sellerId: string) {
  const seller = await findSellerById(sellerId);
  if (!seller) throw new AppError("seller_not_found");
  const [catalog, s, merchant, cap, lease] = await Promise.all([
    getCatalog(seller),
    findSellerSettings(sellerId),
    findMerchantInfo(sellerId),
    findUnsettledCaps(sellerId),
    findCreditLease(sellerId),
  ]);
  const networks = [...new Set([...KNOWN_NETWORKS.map((n) => n.network), ...Object.keys(s.explorerTxUrls)])];
  return {
    storefront: { name: seller.name, slug: seller.slug, hosts: catalog.hosts, payTo: seller.payToAddress, signingSecretSet: !!seller.signingSecret },
    explorers: networks.map((network) => ({
      network,
      name: KNOWN_NETWORKS.find((n) => n.network === network)?.name ?? network,
      format: Object.hasOwn(s.explorerTxUrls, network) ? s.explorerTxUrls[network]! : null,
      defaultFormat: DEFAULT_EXPLORER_TX_URLS[network] ?? null,
    })),
    ethUsd: s.ethUsdMicros === null ? null : { usd: microsToUsd(s.ethUsdMicros), setAt: s.ethUsdSetAt?.toISOString() ?? null },
    merchant,
    unsettledCap: describeUnsettledCap(cap.wallet, "wallet"),
    sellerUnsettledCap: describeUnsettledCap(cap.seller, "seller"),
    creditLease: describeCreditLease(lease),
  };
}
