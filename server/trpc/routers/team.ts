import { z } from "zod";
import { AppError } from "../../errors";
import { TEAM_ROLES } from "../../team/roles";
import { inviteMember } from "../../auth/invite-member";
import { findTeam, updateMemberRole } from "../../team/team.queries";
import { memberProcedure, router, sellerProcedure } from "../init";
import { inviteOutput, teamOutput } from "../outputs/team";

// The console's team (Settings): every member sees who is on it; owners invite and change roles (sellerProcedure's
// mutations are owners' only).
export const teamRouter = router({
  members: memberProcedure.output(teamOutput).query(async ({ ctx }) => {
    const t = await findTeam(ctx.seller.id);
    return {
      me: ctx.seller.userId,
      members: t.members.map((m) => ({ ...m, role: m.role as (typeof TEAM_ROLES)[number], lastLoginAt: m.lastLoginAt?.toISOString() ?? null })),
      invites: t.invites.map((i) => ({
        ...i,
        role: i.role as (typeof TEAM_ROLES)[number],
        expiresAt: i.expiresAt.toISOString(),
        createdAt: i.createdAt.toISOString(),
      })),
    };
  }),
  invite: sellerProcedure
    .input(z.object({ email: z.string().trim().min(3).max(320), role: z.enum(TEAM_ROLES) }))
    .output(inviteOutput)
    .mutation(async ({ ctx, input }) => {
      // The link's origin comes from configuration for the request (never from the client's input), as a password reset's does.
      if (!ctx.origin) throw new AppError("invalid_request", { detail: "invitations are sent from the console" });
      return inviteMember({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, ...input, origin: await ctx.origin() });
    }),
  setRole: sellerProcedure
    .input(z.object({ userId: z.string().min(1).max(100), role: z.enum(TEAM_ROLES) }))
    .output(z.object({ userId: z.string(), role: z.enum(TEAM_ROLES) }))
    .mutation(async ({ ctx, input }) => {
      const r = await updateMemberRole({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, ...input });
      if (r.type === "not_found") throw new AppError("not_found", { detail: "no such team member" });
      if (r.type === "last_owner") throw new AppError("invalid_request", { reason: "invalid_parameter", detail: "the storefront needs at least one owner" });
      return input;
    }),
});
