// A console user's role: an owner changes money and settings (prices, plans, refunds, payout, webhooks, identity
// providers, the team); a viewer reads everything and changes nothing. The tRPC tiers enforce it on the server.
export const TEAM_ROLES = ["owner", "viewer"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
