import { getServerSession, type Session } from "next-auth";
import { authOptions } from "./options";

/** The signed-in person of the current request (route handlers and server components), or null (also for a session that was ended). */
export async function currentSession(): Promise<Session | null> {
  const s = await getServerSession(authOptions());
  return s?.user?.id ? s : null;
}
