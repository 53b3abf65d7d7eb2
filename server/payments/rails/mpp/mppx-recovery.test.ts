// mppx validates an MPP credential's EIP-712 signature with the recovery it is given (patches/mppx+0.11.0.patch adds
// the option): the storefront's libsecp256k1 recovery. If the patch were lost, mppx would silently fall back to viem's
// slower curve; these tests fail instead. No chain and no database: mppx's own server and client, in process.
import { Challenge, Credential } from "mppx";
import { Mppx as MppxClient, evm as evmClient } from "mppx/client";
import { evm } from "mppx/evm/server";
import { Mppx } from "mppx/server/core";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it, vi } from "vitest";
import { CHAIN_ID, USDC_ADDRESS, USDC_DOMAIN } from "../../../chain/config";
import { recoverTypedDataAddress } from "../../../chain/recover-signer";

const payer = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const payTo = "0x00000000000000000000000000000000000000b2";

function server(recover: typeof recoverTypedDataAddress) {
  return Mppx.create({
    secretKey: "a-test-secret-of-at-least-thirty-two-bytes",
    realm: "data.example",
    methods: [
      evm.charge({
        currency: USDC_ADDRESS,
        chainId: CHAIN_ID,
        decimals: 6,
        recipient: payTo,
        authorization: { name: USDC_DOMAIN.name, version: USDC_DOMAIN.version },
        recoverTypedDataAddress: recover,
        settle: async () => ({ reference: "unused" }),
      }),
    ],
  });
}

async function credentialFor(s: ReturnType<typeof server>) {
  const challenge = await s.challenge.evm.charge({ amount: "0.02", expires: new Date(Date.now() + 60_000).toISOString() });
  const res = new Response(null, { status: 402, headers: { "WWW-Authenticate": Challenge.serialize(challenge) } });
  const client = MppxClient.create({ methods: [evmClient.charge({ account: payer, currencies: [evmClient.assets.base.USDC] })], polyfill: false });
  const prepared = await client.preparePayment(res);
  return Credential.deserialize(await prepared.createCredential());
}

describe("mppx's evm charge recovers signatures with the storefront's recovery", () => {
  it("calls the given recovery once per validation, and accepts the payer it names", async () => {
    const recover = vi.fn(recoverTypedDataAddress);
    const s = server(recover as unknown as typeof recoverTypedDataAddress);
    await expect(s.validateCredential(await credentialFor(s))).resolves.toBeTruthy();
    expect(recover).toHaveBeenCalledTimes(1);
    await expect(recover.mock.results[0]!.value).resolves.toBe(payer.address);
  });

  it("refuses the credential when the recovery names someone else (so its answer is the one mppx uses)", async () => {
    const s = server(async () => "0x000000000000000000000000000000000000dEaD");
    await expect(s.validateCredential(await credentialFor(s))).rejects.toThrow(/signature mismatch/);
  });
});
