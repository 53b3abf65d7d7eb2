import { redirect } from "next/navigation";
import { currentSession } from "@/server/auth/session";
import { Dashboard } from "./dashboard";

export const dynamic = "force-dynamic";

// /console - the seller dashboard (signed-in sellers only)
export default async function ConsolePage() {
  const session = await currentSession();
  if (session?.user.kind !== "seller") redirect("/console/sign-in");
  return <Dashboard email={session.user.email} />;
}
