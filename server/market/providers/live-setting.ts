// A live vendor's setting read by name, for an operation whose vendor env.ts does not type: its base URL (so tests
// point it at a local replay) and its key. Production passes the process environment as `LiveConfig.settings`;
// tests pass their own. A missing required setting is a 502 naming it, at the first live call that needs it.
import { AppError } from "../../errors";
import type { LiveConfig } from "./types";

export function liveSetting(cfg: LiveConfig, name: string, fallback?: string): string {
  const value = cfg.settings?.[name] || fallback;
  if (!value)
    throw new AppError("upstream_unavailable", {
      reason: "provider_not_configured",
      detail: `${name} is not set: the live provider for this operation needs it`,
    });
  return value;
}
