import NextAuth from "next-auth";
import { authOptions } from "@/server/auth/options";

// /api/auth/* - next-auth (sign-in, callback, session, csrf, sign-out)
async function handler(req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(req as never, { params: await ctx.params } as never, authOptions());
}

export { handler as GET, handler as POST };
