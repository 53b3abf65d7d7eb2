import { methods } from "@/server/http/route";
import { serveArtifact } from "@/server/market/artifacts/serve-artifact";

// GET /artifacts/{id}.png - hosted backtest report (public, no payment; 404 after it expires)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: (ctx) => serveArtifact(String(ctx.params.file ?? "")) });
