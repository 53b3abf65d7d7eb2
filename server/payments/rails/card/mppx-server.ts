// mppx's server for the MPP card method: the `stripe` charge method (shared payment tokens, card only, USD in
// cents), used to issue challenges (HMAC-bound ids over realm, method, intent, request, expiry and our opaque binding)
// and to recognise our own. It never charges: the PaymentIntent is created by our card processor after the upstream
// answered (rails/card/settle.ts), with an idempotency key derived from our payment id, the same parameters mppx's
// own stripe method sends, and the decline codes kept.
// mppx's narrow entry points: `mppx/server` also loads the tempo chain's methods, which this rail never uses (0.8 s of
// CPU at every start; the objects are the same).
import { Mppx } from "mppx/server/core";
import { stripe } from "mppx/stripe/server/spt";
import { mppxServer } from "../../mpp/mppx-servers";

/** mppx requires a Stripe client; the storefront never lets mppx use it. */
const neverCharges = {
  paymentIntents: {
    create: async () => {
      throw new Error("MPP card payments are charged through the storefront's card processor, not through mppx");
    },
  },
};

function build(secretKey: string, realm: string, networkId: string) {
  return Mppx.create({
    secretKey,
    realm,
    methods: [
      stripe.charge({
        client: neverCharges as never,
        networkId,
        paymentMethodTypes: ["card"],
        currency: "usd",
        decimals: 2,
      }),
    ],
  });
}

/** The mppx server of the card method for this storefront host and Stripe profile (cached, as the evm method's). */
export function cardMppxServer(realm: string, networkId: string) {
  return mppxServer(`stripe|${realm}|${networkId}`, (secretKey) => build(secretKey, realm, networkId));
}
