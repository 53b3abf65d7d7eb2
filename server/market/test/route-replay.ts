// Tests only: a local node:http server replaying recorded vendor replies by route, for the live adapters' tests (never
// the network). `route` answers a request from the committed files; `script` queues replies served first, in order (a
// 5xx before the recorded answer, a block page); every request is kept in `seen` with its headers.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ReplayedRequest = { method: string; url: URL; headers: http.IncomingHttpHeaders; body: string };
export type Reply = { status?: number; body: string; type?: string };

export type RouteReplay = {
  base: string;
  seen: ReplayedRequest[];
  /** Replies served before the route's, one per request, in order. */
  script(...replies: Reply[]): void;
  close(): Promise<void>;
};

export async function startRouteReplay(route: (req: ReplayedRequest) => Reply | undefined): Promise<RouteReplay> {
  const seen: ReplayedRequest[] = [];
  const queue: Reply[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const r: ReplayedRequest = { method: req.method!, url: new URL(req.url!, "http://replay"), headers: req.headers, body };
      seen.push(r);
      const reply = queue.shift() ?? route(r) ?? { status: 404, body: "Not Found", type: "text/plain" };
      res.writeHead(reply.status ?? 200, { "content-type": reply.type ?? "application/json" }).end(reply.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    script: (...replies) => void queue.push(...replies),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
