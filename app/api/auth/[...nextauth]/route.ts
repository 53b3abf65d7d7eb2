import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/server/auth/options";
import { boundedRequest } from "@/server/http/parse";
import { observed } from "@/server/http/route";

const SIGN_IN_BODY_LIMIT = 16 * 1024;

// /api/auth/* - next-auth (sign-in, callback, session, csrf, sign-out). A sign-in form is a few hundred bytes: its body
// is read within 16 KiB before next-auth reads it (413 beyond); a refusal of ours is JSON in the spec's shape.
async function handler(req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) {
  return observed("/api/auth/[...nextauth]", async (r) =>
    NextAuth(new NextRequest(await boundedRequest(r, SIGN_IN_BODY_LIMIT)) as never, { params: await ctx.params } as never, authOptions()),
  )(req);
}

export { handler as GET, handler as POST };
