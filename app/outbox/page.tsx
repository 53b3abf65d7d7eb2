import { notFound } from "next/navigation";
import { listOutbox, outboxEnabled } from "@/server/identity/send-mail";

export const dynamic = "force-dynamic";

// /outbox - demo/dev only (IDENTITY_DEV_OUTBOX=1): the sign-in emails the claim page "sent"; 404 otherwise
export default async function Outbox() {
  if (!outboxEnabled()) notFound();
  const messages = await listOutbox();
  return (
    <main className="mx-auto mt-12 max-w-2xl p-4">
      <h1 className="text-xl font-semibold">Demo outbox</h1>
      <p className="mt-1 text-sm text-slate-500">Emails are not sent in the demo; they land here. Newest first. Reload to see new ones.</p>
      {messages.length === 0 && <p className="mt-6">No messages yet.</p>}
      <ul className="mt-6 space-y-4">
        {messages.map((m) => (
          <li key={m.id} data-testid="outbox-message" className="rounded border border-slate-200 bg-white p-4">
            <p className="text-sm text-slate-500">
              To <span data-testid="outbox-to">{m.to}</span> at {m.createdAt.toISOString()}
            </p>
            <p className="font-medium" data-testid="outbox-subject">
              {m.subject}
            </p>
            <pre className="mt-2 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">{m.text}</pre>
          </li>
        ))}
      </ul>
    </main>
  );
}
