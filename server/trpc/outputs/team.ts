// Output schemas of the team router.
import { z } from "zod";
import { TEAM_ROLES } from "../../team/roles";
import { iso } from "./common";

const role = z.enum(TEAM_ROLES);

export const teamOutput = z.object({
  me: z.string(),
  members: z.array(z.object({ id: z.string(), email: z.string(), name: z.string(), role, lastLoginAt: iso.nullable() })),
  invites: z.array(z.object({ id: z.string(), email: z.string(), role, expiresAt: iso, createdAt: iso })),
});

export const inviteOutput = z.object({ id: z.string(), email: z.string(), role, expiresAt: iso });
