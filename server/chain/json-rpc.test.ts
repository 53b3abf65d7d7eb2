// The plain JSON-RPC client against a local HTTP server that answers as nodes do: results, reverts (reason in the
// message, or only in `data`), HTTP failures (retried once) and JSON-RPC errors (never retried).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { encodeAbiParameters } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRANSIENT } from "../payments/eip3009/outcomes";
import { ethCall, rpcRequest, RpcError } from "./json-rpc";

type Reply = { status: number; body: unknown };
const replies: Reply[] = [];
const seen: { method: string; params: unknown }[] = [];
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = JSON.parse(raw) as { id: number; method: string; params: unknown };
      seen.push({ method: body.method, params: body.params });
      const r = replies.shift() ?? { status: 200, body: { result: "0x" } };
      res.writeHead(r.status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: body.id, ...(r.body as object) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

const reasonData = (reason: string) => `0x08c379a0${encodeAbiParameters([{ type: "string" }], [reason]).slice(2)}`;
const tx = { from: "0x0000000000000000000000000000000000000001", to: "0x0000000000000000000000000000000000000002", data: "0x1234" } as const;

describe("json-rpc", () => {
  it("sends eth_call at latest and returns the result", async () => {
    seen.length = 0;
    replies.push({ status: 200, body: { result: "0xbeef" } });
    expect(await ethCall(url, tx)).toBe("0xbeef");
    expect(seen).toEqual([{ method: "eth_call", params: [tx, "latest"] }]);
  });

  it("a revert is an RpcError whose message carries the reason, read from `data` when the message lacks it", async () => {
    replies.push({ status: 200, body: { error: { code: 3, message: "execution reverted: FiatTokenV2: invalid signature", data: reasonData("x") } } });
    await expect(ethCall(url, tx)).rejects.toMatchObject({ code: 3, message: "execution reverted: FiatTokenV2: invalid signature" });
    replies.push({
      status: 200,
      body: { error: { code: 3, message: "execution reverted", data: reasonData("FiatTokenV2: authorization is used or canceled") } },
    });
    await expect(ethCall(url, tx)).rejects.toMatchObject({ message: "execution reverted: FiatTokenV2: authorization is used or canceled" });
    replies.push({ status: 200, body: { error: { code: 3, message: "execution reverted", data: "0xdeadbeef" } } });
    await expect(ethCall(url, tx)).rejects.toMatchObject({ message: "execution reverted" });
  });

  it("retries an HTTP failure once; a JSON-RPC error is the node's answer and is not retried", async () => {
    seen.length = 0;
    replies.push({ status: 502, body: {} }, { status: 200, body: { result: "0x01" } });
    expect(await rpcRequest(url, "eth_chainId", [])).toBe("0x01");
    expect(seen).toHaveLength(2);

    seen.length = 0;
    replies.push({ status: 503, body: {} }, { status: 503, body: {} });
    await expect(rpcRequest(url, "eth_chainId", [])).rejects.toThrow(/RPC HTTP 503/);
    expect(seen).toHaveLength(2);

    seen.length = 0;
    replies.push({ status: 200, body: { error: { code: -32601, message: "method not found" } } });
    await expect(rpcRequest(url, "eth_nothing", [])).rejects.toBeInstanceOf(RpcError);
    expect(seen).toHaveLength(1);
  });

  it("an unreachable node is a plain error (connection refused, which settlement retries as transient), not an RpcError", async () => {
    const e = await rpcRequest("http://127.0.0.1:1", "eth_chainId", []).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(RpcError);
    expect(String((e as Error).message)).toMatch(/ECONNREFUSED/);
    expect(String((e as Error).message)).toMatch(TRANSIENT);
  });

  it("keeps its connection to the node open between requests, and gets past one the node closed meanwhile", async () => {
    server.closeIdleConnections();
    await new Promise((r) => setTimeout(r, 20));
    const sockets = new Set<unknown>();
    const onConnection = (socket: unknown) => sockets.add(socket);
    server.on("connection", onConnection);
    try {
      for (let i = 0; i < 5; i++) expect(await rpcRequest(url, "eth_chainId", [])).toBe("0x");
      expect(sockets.size).toBe(1);
      // The node drops idle keep-alive connections (as proxies in front of RPC providers do): the next request still answers.
      server.closeIdleConnections();
      await new Promise((r) => setTimeout(r, 20));
      expect(await rpcRequest(url, "eth_chainId", [])).toBe("0x");
      expect(sockets.size).toBe(2);
    } finally {
      server.off("connection", onConnection);
    }
  });
});
