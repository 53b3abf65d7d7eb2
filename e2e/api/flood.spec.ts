// Issue 22 on the built app: one anonymous client flooding unpaid calls until it gets 429 cannot stop the shop. In the
// same minute a paying agent from another address is served (the official @x402/fetch client, a real proof settled on
// the stack's chain), and so is a plain unpaid call (its 402) from a third address; a valid proof sent from the
// flooding address itself is served too. The addresses are real TCP peers: Linux routes all of 127.0.0.0/8 to
// loopback, so each client binds its sockets to its own 127.0.0.x (no X-Forwarded-For: TRUSTED_PROXY_HOPS is 0).
// The flood runs against another instance of the app with a per-client budget of 20 a minute, so it stays small on a
// shared machine; that instance shares the e2e stack's database (the budgets live there) and chain.
import http from "node:http";
import { expect, test } from "@playwright/test";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { mnemonicToAccount } from "viem/accounts";
import { startAppInstance } from "../stack";

const base = Number(process.env.E2E_PORT ?? 3100);
const CLIENT_LIMIT = 20;
const PRICED = "/api/v1/aggregates/AAPL?from=2017-01-03&to=2017-01-31";

/** A fetch whose TCP connections leave from `localAddress`: what a client at that address sends. */
function fetchFrom(localAddress: string): typeof fetch {
  const agent = new http.Agent({ keepAlive: true, localAddress, maxSockets: 16 });
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const r = http.request(
        { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method: req.method, headers: Object.fromEntries(req.headers) },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", reject);
          res.on("end", () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) headers.append(name, v);
            resolve(new Response(res.statusCode === 204 ? null : Buffer.concat(chunks), { status: res.statusCode, headers }));
          });
        },
      );
      r.on("error", reject);
      r.end(body);
    });
  }) as typeof fetch;
}

/** anvil's default account `index` (1-9: the stack's funded demo payers; public test keys). */
const anvilAccount = (index: number) => mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: index });

function x402(index: number) {
  const c = new x402Client();
  registerExactEvmScheme(c, { signer: anvilAccount(index) });
  return c;
}

test.describe("a flood of unpaid calls from one client", () => {
  let app: { url: string; stop: () => void } | undefined;
  test.afterAll(() => app?.stop());

  test("is refused with 429 while a paying agent and a plain unpaid call from other addresses are served in the same minute", async () => {
    test.setTimeout(120_000);
    app = await startAppInstance(base + 21, { RATE_LIMIT_CLIENT_PER_MINUTE: String(CLIENT_LIMIT) });
    // Everything below within one fixed one-minute window.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 40_000) await new Promise((r) => setTimeout(r, left + 100));
    const windowOf = () => Math.floor(Date.now() / 60_000);
    const window = windowOf();
    const url = `${app.url}${PRICED}`;

    const flooder = fetchFrom("127.0.0.2");
    const statuses: number[] = [];
    let limited: Response | undefined;
    // 8 at a time until the first 429 (a rerun within the minute meets its budget already spent: 429 at once).
    while (!limited && statuses.length < CLIENT_LIMIT * 10) {
      const batch = await Promise.all(Array.from({ length: 8 }, () => flooder(url)));
      for (const res of batch) {
        statuses.push(res.status);
        if (res.status === 429) limited ??= res;
        else await res.arrayBuffer();
      }
    }
    expect(limited, `statuses: ${statuses.join(",")}`).toBeDefined();
    expect(statuses.filter((s) => s !== 402 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 402).length).toBeLessThanOrEqual(CLIENT_LIMIT);
    expect(await limited!.json()).toMatchObject({ error: "rate_limit_exceeded", scope: "client", limit: CLIENT_LIMIT });
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Still refused: the flood goes on being refused for the rest of the minute.
    expect((await flooder(url)).status).toBe(429);

    // A paying agent at 127.0.0.3: its first (unpaid) call gets the 402, its paid retry the data.
    const paying = await wrapFetchWithPayment(fetchFrom("127.0.0.3"), x402(4))(url);
    const paidBody = await paying.text();
    expect(paying.status, paidBody).toBe(200);
    expect(JSON.parse(paidBody).ticker).toBe("AAPL");
    expect(paying.headers.get("payment-response")).toBeTruthy();

    // A plain unpaid call at 127.0.0.4: its 402.
    const plain = await fetchFrom("127.0.0.4")(url);
    expect(plain.status).toBe(402);
    expect((await plain.json()).error).toBe("payment_required");

    // A valid proof from the flooding address itself (challenge fetched elsewhere): its payer's budget, served.
    const challenge = await fetchFrom("127.0.0.5")(url);
    expect(challenge.status).toBe(402);
    const httpClient = new x402HTTPClient(x402(5));
    const required = decodePaymentRequiredHeader(challenge.headers.get("payment-required")!);
    const proof = httpClient.encodePaymentSignatureHeader(await httpClient.createPaymentPayload(required));
    const fromFlooder = await flooder(url, { headers: proof });
    expect(fromFlooder.status, await fromFlooder.clone().text()).toBe(200);
    // ... and the flooder's unpaid calls are still refused.
    expect((await flooder(url)).status).toBe(429);

    expect(windowOf(), "the spec ran across a minute boundary").toBe(window);
  });
});
