import { AppError } from "../../errors";
import { getArtifact } from "./get-artifact";

/** The public PNG response for /artifacts/{id}.png: no payment, cacheable until it expires. */
export async function serveArtifact(file: string): Promise<Response> {
  const m = /^(art_[0-9a-z]{16})\.png$/.exec(file);
  if (!m) throw new AppError("artifact_not_found", { detail: "no such artifact, or it has expired" });
  const a = await getArtifact(m[1]!);
  const maxAge = Math.max(0, Math.floor((a.expiresAt.getTime() - Date.now()) / 1000));
  return new Response(Buffer.from(a.bytes), {
    status: 200,
    headers: {
      "content-type": a.contentType,
      "content-length": String(a.bytes.byteLength),
      "cache-control": `public, max-age=${maxAge}`,
      expires: a.expiresAt.toUTCString(),
      "x-content-type-options": "nosniff",
    },
  });
}
