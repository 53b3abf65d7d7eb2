// Tests only: a local node:http server that answers as a vendor did, from the replies recorded under data/ (never the
// network). `answer` maps a request to a recorded status and body; everything asked is kept in `seen`.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export type ReplayRequest = { method: string; url: URL; body: string };
export type ReplayAnswer = { status: number; body: string; contentType?: string };

/** A recorded file under data/, as text (the body a vendor sent). */
export const recorded = (rel: string) => fs.readFileSync(path.join(import.meta.dirname, "../../../data", rel), "utf8");

export async function startRecordedReplay(
  answer: (req: ReplayRequest) => ReplayAnswer | undefined,
): Promise<{ base: string; seen: ReplayRequest[]; close(): Promise<void> }> {
  const seen: ReplayRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const r = { method: req.method!, url: new URL(req.url!, "http://replay"), body };
      seen.push(r);
      const a = answer(r) ?? { status: 404, body: JSON.stringify({ error: "not replayed" }) };
      res.writeHead(a.status, { "content-type": a.contentType ?? "application/json" }).end(a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
