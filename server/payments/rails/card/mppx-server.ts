// mppx's server for the MPP card method: the `stripe` charge method (shared payment tokens, card only, USD in
// cents), used to issue challenges (HMAC-bound ids over realm, method, intent, request, expiry and our opaque binding)
// and to recognise our own. It never charges: the PaymentIntent is created by our card processor after the upstream
// answered (rails/card/settle.ts), with an idempotency key derived from our payment id, the same parameters mppx's
// own stripe method sends, and the decline codes kept.
import { Challenge } from "mppx";
import { Mppx, stripe } from "mppx/server";
import { deriveKey } from "../../../lib/derive-key";

type Server = ReturnType<typeof build>;

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

const servers = new Map<string, Server>();

// The same sub-key as the evm method's challenges: one realm, one issuer; the HMAC also covers the method.
const secretKey = () => deriveKey("mpp-challenge").toString("base64url");

export function cardChallengeIsOurs(challenge: Parameters<typeof Challenge.verify>[0]): boolean {
  return Challenge.verify(challenge, { secretKey: secretKey() });
}

export function cardMppxServer(realm: string, networkId: string): Server {
  const key = `${secretKey()}|${realm}|${networkId}`;
  let s = servers.get(key);
  if (!s) {
    if (servers.size > 1000) servers.clear();
    servers.set(key, (s = build(secretKey(), realm, networkId)));
  }
  return s;
}
