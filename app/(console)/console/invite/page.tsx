import { AcceptForm } from "./accept-form";

// /console/invite?token=... - the link of a team invitation (Settings, Team): the invited person chooses their name and
// password, and the account is created with the invitation's email and role.
export default async function InvitePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const token = (await searchParams).token;
  return (
    <main className="mx-auto mt-24 max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-xl font-semibold">Join a seller console</h1>
      {typeof token === "string" ? (
        <>
          <p className="mt-1 text-sm text-slate-500">Choose your name and a password. You sign in with the email the invitation was sent to.</p>
          <AcceptForm token={token} />
        </>
      ) : (
        <p className="mt-2 text-sm text-slate-600" role="alert">
          This page opens from the link in an invitation email. Ask an owner of the console to invite you.
        </p>
      )}
    </main>
  );
}
