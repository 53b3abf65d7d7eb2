// Test helpers for the gateway: a real anvil chain (the run's shared one, with this file's own wallets), a fake
// upstream that checks the gateway's signature, an isolated seller, and a real HTTP server in front of the gateway
// route (for the official client over HTTP). Imported by *.test.ts files only.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { x402Facilitator } from "@x402/core/facilitator";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach } from "vitest";
import * as gatewayRoute from "../../app/api/v1/[...path]/route";
import { seedMarketSeller } from "../../prisma/seed";
import { anvilAddress, anvilPrivateKey, fundTestWallets, startLocalChain } from "../../scripts/lib/local-chain";
import { publicClient, walletClient } from "../chain/clients";
import { NETWORK, USDC_ADDRESS } from "../chain/config";
import { TOKEN_ABI } from "../chain/token";
import { db } from "../db/client";
import { resetEnvForTests } from "../env";
import { newId } from "../lib/ids";
import { verifyUpstreamRequest } from "../upstream-auth/signature";
import { setFacilitatorForTests } from "../payments/eip3009/facilitator";

/**
 * The chain a test file pays on: the run's shared anvil (TEST_CHAIN_RPC_URL, started by the Vitest global set-up) with
 * the file's own wallets funded (scripts/lib/local-chain.ts `fundTestWallets`: its gas wallet, payers and payTo), so
 * files running at once never share a balance or a nonce. `ownChain` (the reason, for the reader) starts a chain for
 * this file alone: for a file that changes how the whole chain mines. The gateway's facilitator pays gas from the
 * file's account 0.
 */
export async function startChainForTests(opts: { ownChain?: string } = {}): Promise<{ rpcUrl: string; stop: () => Promise<void> }> {
  const shared = opts.ownChain ? undefined : process.env.TEST_CHAIN_RPC_URL;
  let chain: { rpcUrl: string; stop: () => Promise<void> };
  if (shared) chain = { rpcUrl: shared, stop: async () => {} };
  else {
    const own = await startLocalChain({ log: () => {}, anyPort: true });
    if (!own) throw new Error("no local chain");
    chain = { rpcUrl: own.env.RPC_URL!, stop: own.stop };
  }
  await fundTestWallets(chain.rpcUrl);
  Object.assign(process.env, { RPC_URL: chain.rpcUrl, FACILITATOR: "local", FACILITATOR_PRIVATE_KEY: anvilPrivateKey(0) });
  resetEnvForTests();
  setFacilitatorForTests(undefined);
  return chain;
}

/**
 * The official x402 facilitator (x402Facilitator with @x402/evm's exact scheme) on the test chain, paying gas from
 * anvil account `gasIndex`: the reference our own local facilitator is checked against, and a real facilitator to
 * put behind HTTP for the remote-facilitator tests. Its default gas wallet (account 9, a payer that never sends
 * transactions itself) is not the gateway's (account 0), so the two never race for nonces.
 */
export function officialFacilitator(rpcUrl: string, gasIndex = 9): x402Facilitator {
  const wallet = walletClient(rpcUrl, anvilPrivateKey(gasIndex));
  const signer = toFacilitatorEvmSigner(Object.assign(wallet, { address: wallet.account.address }) as unknown as Parameters<typeof toFacilitatorEvmSigner>[0]);
  return new x402Facilitator().register(NETWORK, new ExactEvmScheme(signer));
}

/** A USDC balance on the test chain, in micro-USD. */
export async function usdcBalance(rpcUrl: string, address: string): Promise<bigint> {
  return (await publicClient(rpcUrl).readContract({ address: USDC_ADDRESS, abi: TOKEN_ABI, functionName: "balanceOf", args: [address] })) as bigint;
}

/** The gateway's route handler, in process, for a request to `host` (the storefront is chosen by Host). */
export function callGateway(host: string, pathAndQuery: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const method = init.method ?? "GET";
  const handler = gatewayRoute[method as "GET"];
  return handler(new Request(`http://${host}${pathAndQuery}`, { method, headers: { ...init.headers, host } }), { params: Promise.resolve({}) });
}

/**
 * The official x402 client paying with anvil account `payerIndex`. Its default spend control pays at most $1 a
 * payment; an agent buying plan credit raises it on purpose (`maxAmountPerPayment`, e.g. "$100").
 */
export function officialX402Client(payerIndex: number, opts: { maxAmountPerPayment?: string } = {}): x402Client {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: privateKeyToAccount(anvilPrivateKey(payerIndex)) });
  if (opts.maxAmountPerPayment) client.setSpendControls({ maxAmountPerPayment: opts.maxAmountPerPayment as `$${string}` });
  return client;
}

/** The proof headers the official client sends for this 402; `v1` reads only the body (what v1 clients do). */
export async function payChallenge(
  res: Response,
  payerIndex: number,
  opts: { v1?: boolean; maxAmountPerPayment?: string } = {},
): Promise<Record<string, string>> {
  const client = new x402HTTPClient(officialX402Client(payerIndex, opts));
  const required = client.getPaymentRequiredResponse((name) => (opts.v1 ? null : res.headers.get(name)), await res.json());
  return client.encodePaymentSignatureHeader(await client.createPaymentPayload(required));
}

/**
 * The official MPP client (mppx) paying with anvil account `payerIndex`: the `evm` charge method for USDC on Base.
 * `polyfill: false` keeps it from replacing the global fetch. `mppx/client` is loaded on first use: it costs a process
 * about 0.6 s of CPU beyond the server's own mppx entries, and most files that import these helpers never pay by MPP.
 */
export async function officialMppClient(payerIndex: number, opts: { fetch?: typeof fetch } = {}) {
  const { Mppx: MppxClient, evm: mppEvm } = await import("mppx/client");
  return MppxClient.create({
    methods: [mppEvm.charge({ account: privateKeyToAccount(anvilPrivateKey(payerIndex)), currencies: [mppEvm.assets.base.USDC] })],
    polyfill: false,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
}

/** The `Authorization: Payment` credential the official MPP client makes for this 402 (not sent). */
export async function payChallengeMpp(res: Response, payerIndex: number): Promise<Record<string, string>> {
  const prepared = await (await officialMppClient(payerIndex)).preparePayment(res);
  return { authorization: await prepared.createCredential() };
}

/** Pay a 402 on either wallet rail with its official client; the headers to retry with. */
export function payOn(rail: "x402" | "mpp", res: Response, payerIndex: number): Promise<Record<string, string>> {
  return rail === "x402" ? payChallenge(res, payerIndex) : payChallengeMpp(res, payerIndex);
}

/** `statusOf`: the status for the n-th signed call (1-based), instead of `status` for all. */
export type UpstreamMode = { status: number; statusOf?: (n: number) => number; usage?: string | null; delayMs?: number; body?: unknown };

/** A stand-in for the market data upstream: refuses unsigned requests (401), answers per `mode`. */
export async function startFakeUpstream(secret: string) {
  const state = { mode: { status: 200 } as UpstreamMode, calls: 0, lastHeaders: {} as http.IncomingHttpHeaders };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://upstream");
    const headers = new Headers(Object.entries(req.headers).map(([k, v]) => [k, String(v)] as [string, string]));
    const check = verifyUpstreamRequest(secret, { method: req.method ?? "GET", path: url.pathname, query: url.searchParams }, headers);
    if (!check.ok) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_upstream_signature", reason: check.reason }));
      return;
    }
    state.calls++;
    state.lastHeaders = req.headers;
    const mode = state.mode;
    if (mode.delayMs) await new Promise((r) => setTimeout(r, mode.delayMs));
    const h: Record<string, string> = { "content-type": "application/json", connection: "keep-alive", "cache-control": "public, max-age=60" };
    if (mode.usage) h["svc-usage"] = mode.usage;
    res.writeHead(mode.statusOf?.(state.calls) ?? mode.status, h).end(
      JSON.stringify(
        mode.body ?? {
          ticker: url.pathname.split("/").pop(),
          source: "fake-upstream",
          path: url.pathname,
          query: url.search,
          forwardedHost: req.headers["x-forwarded-host"] ?? null,
        },
      ),
    );
  });
  // The gateway keeps its upstream sockets alive without a timeout of its own: with Node's 5 s, a socket closed here
  // while the gateway reuses it (a pause between two tests, longer on a loaded machine) reads as upstream_unavailable.
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, state, stop: () => new Promise<void>((r) => server.close(() => r())) };
}

/** What the gateway test files hold between their tests (`let chain: TestChain`, ...). */
export type TestChain = Awaited<ReturnType<typeof startChainForTests>>;
export type FakeUpstream = Awaited<ReturnType<typeof startFakeUpstream>>;
export type GatewaySeller = Awaited<ReturnType<typeof createGatewaySeller>>;
export type GatewayStack = { chain: TestChain; upstream: FakeUpstream; seller: GatewaySeller };

/** What most gateway test files run against: the chain, a fake upstream checking `secret`, a seller proxying to it. */
export async function startGatewayStack(secret: string, opts: { ownChain?: string } = {}): Promise<GatewayStack> {
  const [chain, upstream] = await Promise.all([startChainForTests(opts), startFakeUpstream(secret)]);
  const seller = await createGatewaySeller(upstream.url, { signingSecret: secret });
  return { chain, upstream, seller };
}

export async function stopGatewayStack(stack: { chain?: { stop: () => Promise<void> }; upstream?: { stop: () => Promise<void> } }): Promise<void> {
  await stack.upstream?.stop();
  await stack.chain?.stop();
}

/**
 * The gateway stack of a test file, built before its tests and stopped after them; the fake upstream answers 200
 * again before each test. `ready` hands the parts to the file's own variables once built:
 * `useGatewayStack(SECRET, (s) => ({ chain, upstream, seller } = s))`. The returned object fills in at the same time.
 */
export function useGatewayStack(secret: string, ready?: (stack: GatewayStack) => void, opts: { ownChain?: string } = {}): GatewayStack {
  const stack = {} as GatewayStack;
  beforeAll(async () => {
    Object.assign(stack, await startGatewayStack(secret, opts));
    ready?.(stack);
  }, 60_000);
  afterAll(() => stopGatewayStack(stack));
  beforeEach(() => {
    if (stack.upstream) stack.upstream.state.mode = { status: 200 };
  });
  return stack;
}

/** A seller of its own (unique host), whose services point at `upstreamUrl`. payTo is anvil account 10. */
export async function createGatewaySeller(upstreamUrl: string, opts: { signingSecret?: string | null; payTo?: string | null } = {}) {
  const tag = newId("tst").slice(4);
  const host = `gw-${tag}.test`;
  const signingSecret = opts.signingSecret === undefined ? `secret-${tag}-0123456789` : opts.signingSecret;
  const { sellerId } = await seedMarketSeller(db, {
    slug: `gw-${tag}`,
    name: `Gateway test ${tag}`,
    hosts: [host],
    email: `gw-${tag}@test.test`,
    password: "password-for-tests",
    payTo: opts.payTo === undefined ? anvilAddress(10) : opts.payTo,
    signingSecret,
  });
  await db.service.updateMany({ where: { sellerId, upstreamUrl: { not: "" } }, data: { upstreamUrl } });
  return { sellerId, host, signingSecret: signingSecret ?? "" };
}

type RouteHandler = (req: Request, seg: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/** Real HTTP in front of route handlers; every request is addressed to `host` (the test seller). */
export async function serveRoutes(host: string, route: (pathname: string) => Partial<Record<string, RouteHandler | unknown>> | null) {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://${host}`);
    const handlers = route(url.pathname);
    const handler = handlers?.[req.method ?? "GET"] as RouteHandler | undefined;
    if (!handler) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && k !== "host") headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    headers.set("host", host);
    const body = chunks.length && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined;
    const response = await handler(new Request(url, { method: req.method, headers, body }), { params: Promise.resolve({}) });
    const out: Record<string, string> = {};
    response.headers.forEach((v, k) => (out[k] = v));
    res.writeHead(response.status, out).end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise<void>((r) => server.close(() => r())) };
}
