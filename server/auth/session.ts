import { getServerSession, type Session } from "next-auth";
import { authOptions } from "./options";

/** The signed-in person of the current request (route handlers and server components), or null. */
export async function currentSession(): Promise<Session | null> {
  return getServerSession(authOptions());
}
