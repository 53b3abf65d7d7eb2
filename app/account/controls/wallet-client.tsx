"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { linkWalletAction, setWalletCapsAction, walletMessageAction } from "./actions";

type Eip1193 = { request(args: { method: string; params?: unknown[] }): Promise<unknown> };
const button = "rounded border border-slate-300 px-3 py-1 text-sm disabled:opacity-50";
const input = "w-24 rounded border border-slate-300 px-2 py-1";

/** Link the browser wallet's account: it signs our EIP-4361 message (personal_sign), the server checks it. */
export function LinkWallet() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const link = async () => {
    const ethereum = (window as unknown as { ethereum?: Eip1193 }).ethereum;
    if (!ethereum) return setMessage("No wallet found in this browser (an EIP-1193 wallet such as a browser extension).");
    setPending(true);
    try {
      const [address] = (await ethereum.request({ method: "eth_requestAccounts" })) as string[];
      const asked = await walletMessageAction(String(address));
      if (!asked.ok) return setMessage(asked.message);
      const signature = (await ethereum.request({ method: "personal_sign", params: [asked.message, address] })) as string;
      const res = await linkWalletAction(asked.message, signature);
      setMessage(res.ok ? "Linked." : res.message);
      router.refresh();
    } catch {
      setMessage("The wallet did not sign.");
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="space-y-1">
      <button type="button" className={button} disabled={pending} onClick={link}>
        Link a wallet
      </button>
      {message && (
        <p role="status" className="text-sm">
          {message}
        </p>
      )}
    </div>
  );
}

export function WalletCapsForm({ wallet, perCallUsd, perDayUsd }: { wallet: string; perCallUsd: string | null; perDayUsd: string | null }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  return (
    <form
      className="flex flex-wrap items-end gap-2 text-sm"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        setPending(true);
        const res = await setWalletCapsAction(wallet, String(f.get("perCall") ?? ""), String(f.get("perDay") ?? ""));
        setPending(false);
        setMessage(res.ok ? "Saved." : res.message);
        router.refresh();
      }}
    >
      <label>
        Per call, $
        <input name="perCall" inputMode="decimal" defaultValue={perCallUsd ?? ""} placeholder="none" className={input} />
      </label>
      <label>
        Per day, $
        <input name="perDay" inputMode="decimal" defaultValue={perDayUsd ?? ""} placeholder="none" className={input} />
      </label>
      <button className={button} disabled={pending}>
        Save caps
      </button>
      {message && (
        <p role="status" className="w-full">
          {message}
        </p>
      )}
    </form>
  );
}
