// Change the console settings: transaction link formats per network and the ETH/USD rate for gas costs. Validated
// here (every caller gets the same message), saved with a settings.update audit row in the same transaction.
import { z } from "zod";
import { AppError } from "../errors";
import { parseUsd } from "../lib/money";
import { parseWith } from "../validation";
import { validExplorerFormat } from "../chain/explorer-links";
import { saveSellerSettings, type SettingsRow } from "./settings.queries";
import { getSellerSettings } from "./get-seller-settings";

const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/;

export const settingsInput = z.object({
  // network (CAIP-2) -> format; null: back to the default.
  explorerTxUrls: z
    .record(z.string().regex(CAIP2, "must be a CAIP-2 network id such as eip155:8453"), z.string().max(300).nullable())
    .refine((r) => Object.keys(r).length <= 20, "at most 20 networks"),
  // USD per ETH as a decimal string (e.g. "3012.55"); null or "": no rate, gas is shown in ETH only.
  ethUsd: z.string().max(32).nullable(),
});

function describe(row: SettingsRow) {
  return { explorerTxUrls: row.explorerTxUrls, ethUsdMicros: row.ethUsdMicros?.toString() ?? null };
}

export async function updateSellerSettings(input: { sellerId: string; actorId: string | null; settings: unknown }) {
  const s = parseWith(settingsInput, input.settings);
  const formats: Record<string, string> = {};
  for (const [network, format] of Object.entries(s.explorerTxUrls)) {
    if (format === null) continue;
    const f = format.trim();
    if (!validExplorerFormat(f))
      throw new AppError("invalid_request", {
        reason: "invalid_parameter",
        detail: `the link format for ${network} must be an http(s) URL with exactly one {tx}, or empty for no link`,
        extra: { parameter: `explorerTxUrls.${network}` },
      });
    formats[network] = f;
  }
  let ethUsdMicros: bigint | null = null;
  if (s.ethUsd !== null && s.ethUsd.trim() !== "") {
    ethUsdMicros = parseUsd(s.ethUsd);
    if (ethUsdMicros === null || ethUsdMicros === 0n)
      throw new AppError("invalid_request", {
        reason: "invalid_parameter",
        detail: "the ETH/USD rate must be a positive decimal such as 3012.55 (at most 6 decimal places)",
        extra: { parameter: "ethUsd" },
      });
  }
  await saveSellerSettings({ sellerId: input.sellerId, actorId: input.actorId, explorerTxUrls: formats, ethUsdMicros, describe });
  return getSellerSettings(input.sellerId);
}
