import { ResetForm } from "./reset-form";

// /console/reset-password - a seller's password reset by email: ask for a link; the link (?token=...) sets a new password
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const token = (await searchParams).token;
  return (
    <main className="mx-auto mt-24 max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-xl font-semibold">Reset your password</h1>
      <p className="mt-1 text-sm text-slate-500">
        {typeof token === "string" ? "Choose a new password for your seller console account." : "We email a link to the address of your account."}
      </p>
      <ResetForm token={typeof token === "string" ? token : null} />
    </main>
  );
}
