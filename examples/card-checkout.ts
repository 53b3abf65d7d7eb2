// An agent paying a $0.50 call by card through a human (SERVICE.md part 4): the backtest's 402, POST
// {"checkout": true} to its card.payUrl, print the hosted page for a person to pay, poll card.statusUrl until the card
// payment is complete, then retry the original request unchanged with `svc-payment-id`.
//
//   npm run demo                                   # in one terminal
//   npx tsx examples/card-checkout.ts              # in another; open the printed page and pay
//
// Settings (optional): BASE_URL (default http://127.0.0.1:3000). The demo uses the built-in test processor: pay with
// Stripe's test card 4242 4242 4242 4242 (any future expiry, any CVC); 4000 0000 0000 0002 is declined.
const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:3000";

async function main() {
  const url = `${BASE_URL}/api/v1/backtest/AAPL?years=2`;
  const unpaid = await fetch(url);
  const { payment, card } = await unpaid.json();
  console.log(`GET ${url} -> ${unpaid.status}: ${payment.amount} ${payment.currency}, payment ${payment.id}`);
  if (!card) throw new Error("this 402 has no card block (card payments start at $0.50)");

  const opened = await (
    await fetch(card.payUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ checkout: true }) })
  ).json();
  console.log(`\nAsk a person to pay here:\n\n  ${opened.checkout.url}\n`);

  for (;;) {
    const status = await (await fetch(card.statusUrl)).json();
    if (status.card.status === "complete") break;
    if (["expired", "refunded", "failed", "consumed"].includes(status.card.status)) throw new Error(`the card payment is ${status.card.status}`);
    const why = status.card.last_error ? ` (last attempt: ${status.card.last_error.message})` : "";
    process.stdout.write(`\rwaiting for the card payment: ${status.card.status}${why}   `);
    await new Promise((r) => setTimeout(r, 2000));
  }

  const paid = await fetch(url, { headers: { "svc-payment-id": payment.id } });
  console.log(`\nGET ${url} with svc-payment-id -> ${paid.status}`);
  console.log("billing:", paid.headers.get("svc-billing"));
  const body = await paid.json();
  console.log(`backtest of ${body.ticker}: report ${body.artifact?.url}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
