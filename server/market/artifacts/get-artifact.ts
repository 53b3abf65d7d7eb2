import { AppError } from "../../errors";
import { systemClock, type Clock } from "../lib/envelope";
import { findLiveArtifact } from "./artifacts.queries";

const ID_RE = /^art_[0-9a-z]{16}$/;

/** A live artifact's bytes; 404 once expired (the row is deleted by the next sweep). */
export async function getArtifact(id: string, now: Clock = systemClock): Promise<{ contentType: string; bytes: Uint8Array; expiresAt: Date }> {
  const found = ID_RE.test(id) ? await findLiveArtifact(id, now()) : null;
  if (!found) throw new AppError("artifact_not_found", { detail: "no such artifact, or it has expired" });
  return found;
}
