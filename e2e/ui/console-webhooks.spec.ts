// A seller connects their systems: on the Webhooks page they add an endpoint (a receiver on this machine that verifies
// Standard Webhooks signatures with the official library), copy the secret shown once, see a paid call's event arrive
// signed, read its delivery (state, HTTP status, latency, the body), and resend it when their receiver has failed.
// The flaky storefront (its upstream never answers) is used: its paid calls are released, so the event is
// payment.released, and the demo seller's figures stay as the other console specs expect them.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { Webhook } from "standardwebhooks";
import { privateKeyToAccount } from "viem/accounts";
import { FLAKY, openConsolePage, signIn } from "./sellers";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const HOST = `flaky-seller.localhost:${PORT}`;
// anvil default account 4 (a demo payer wallet; a public test key).
const PAYER = "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a";

type Arrival = { type: string; id: string; paymentId: string | undefined; verified: boolean };

async function startReceiver() {
  const state = { secret: "", fail: false, arrivals: [] as Arrival[] };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let verified = false;
      try {
        new Webhook(state.secret).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      const event = JSON.parse(body);
      state.arrivals.push({ type: event.type, id: event.id, paymentId: event.data?.object?.id, verified });
      res.writeHead(state.fail ? 503 : verified ? 200 : 400, { "content-type": "text/plain" }).end(state.fail ? "down for maintenance" : "stored");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/storefront-events`, state, stop: () => new Promise((r) => server.close(r)) };
}

test("a seller adds an endpoint, receives a paid call's event signed, reads the delivery and resends it", async ({ page, request }) => {
  const receiver = await startReceiver();
  try {
    await signIn(page, FLAKY);
    await openConsolePage(page, "Webhooks and alerts");
    await page.getByTestId("webhook-url").fill(receiver.url);
    await page.getByTestId("webhook-description").fill("accounting");
    await page.getByTestId("webhook-type-payment.released").check();
    await page.getByTestId("webhook-add").click();
    const secret = (await page.getByTestId("webhook-secret-value").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    receiver.state.secret = secret;
    await page.getByTestId("webhook-secret-done").click();
    await expect(page.getByTestId("webhook-secret")).toHaveCount(0);

    // An agent pays for a call the flaky upstream cannot serve: the payment is released, and its event sent.
    const challenge = await request.get("/api/v1/aggregates/AAPL", { headers: { host: HOST } });
    expect(challenge.status()).toBe(402);
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: privateKeyToAccount(PAYER) });
    const http402 = new x402HTTPClient(client);
    const required = http402.getPaymentRequiredResponse((name) => challenge.headers()[name.toLowerCase()] ?? null, await challenge.json());
    const proof = http402.encodePaymentSignatureHeader(await http402.createPaymentPayload(required));
    const paid = await request.get("/api/v1/aggregates/AAPL", { headers: { host: HOST, ...proof } });
    expect(paid.status()).toBeGreaterThanOrEqual(500);
    const paymentId = paid.headers()["svc-payment-id"];
    await expect
      .poll(() => receiver.state.arrivals.filter((a) => a.paymentId === paymentId))
      .toEqual([{ type: "payment.released", id: expect.stringMatching(/^evt_/), paymentId, verified: true }]);

    // The console shows the delivery: succeeded, HTTP 200, its latency and the receiver's answer; then the body.
    const endpointRow = page.locator('[data-testid^="webhook-endpoint-"]', { hasText: receiver.url });
    await endpointRow.getByTestId("webhook-select").click();
    const eventId = receiver.state.arrivals.find((a) => a.paymentId === paymentId)!.id;
    const row = page.getByTestId(`delivery-${eventId}`);
    await expect(row.getByTestId("delivery-state")).toHaveText("Delivered", { timeout: 15_000 });
    await expect(row.getByTestId("delivery-http")).toHaveText("200");
    await expect(row).toContainText("stored");
    await expect(row).toContainText(" ms");
    await row.getByTestId("delivery-open").click();
    await expect(page.getByTestId("delivery-payload")).toContainText(paymentId!);
    await expect(page.getByTestId("delivery-payload")).toContainText('"type": "payment.released"');

    // The receiver goes down; a resend is one more attempt, answered 503, and shown.
    receiver.state.fail = true;
    await row.getByTestId("delivery-resend").click();
    await expect(row.getByTestId("delivery-http")).toHaveText("503", { timeout: 15_000 });
    await expect(row).toContainText("down for maintenance");
    expect(receiver.state.arrivals.filter((a) => a.id === eventId)).toHaveLength(2);
  } finally {
    await receiver.stop();
  }
});
