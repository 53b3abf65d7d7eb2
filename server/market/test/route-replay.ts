// Tests only: a local node:http server replaying recorded vendor replies (the committed files under data/), for the
// live adapters' tests (never the network). `route` answers a request from the committed files; `answer`, when a test
// sets it, answers first (a server error, a reshaped reply) and falls back to `route` by returning undefined; `script`
// queues replies served before either, one per request, in order (a 5xx before the recorded answer, a block page).
// Every request is kept in `seen` with its headers and body; `reset` empties `seen`, the queue and `answer`.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export type ReplayedRequest = { method: string; url: URL; headers: http.IncomingHttpHeaders; body: string };
export type Reply = { status?: number; body: string; type?: string };
type Answer = (req: ReplayedRequest) => Reply | undefined;

export type RouteReplay = {
  base: string;
  seen: ReplayedRequest[];
  /** This test's own answer, tried before the route (undefined falls back to it). */
  answer: Answer | undefined;
  /** Replies served before the route's, one per request, in order. */
  script(...replies: Reply[]): void;
  reset(): void;
  close(): Promise<void>;
};

/** A recorded file under data/, as text (the body a vendor sent). */
export const recorded = (rel: string) => fs.readFileSync(path.join(import.meta.dirname, "../../../data", rel), "utf8");

/** Starts the replay; `type` is the content type of every reply that names none (JSON unless said). */
export async function startRouteReplay(route: Answer, type = "application/json"): Promise<RouteReplay> {
  const queue: Reply[] = [];
  const replay: RouteReplay = {
    base: "",
    seen: [],
    answer: undefined,
    script: (...replies) => void queue.push(...replies),
    reset() {
      replay.seen.length = 0;
      queue.length = 0;
      replay.answer = undefined;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const r: ReplayedRequest = { method: req.method!, url: new URL(req.url!, "http://replay"), headers: req.headers, body };
      replay.seen.push(r);
      const reply = queue.shift() ?? replay.answer?.(r) ?? route(r) ?? { status: 404, body: "Not Found", type: "text/plain" };
      res.writeHead(reply.status ?? 200, { "content-type": reply.type ?? type }).end(reply.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  replay.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return replay;
}
