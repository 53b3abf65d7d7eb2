// An archived feed: what the capture job records once per UTC day, each entity's payload exactly as the live
// operation returned it that day. Each data operation that archives declares its feed in its own folder (named after
// the operation); the registry (server/market/operations) lists them, and the archive's functions are given that list.
import type { MarketProviders } from "../providers/types";

export type FeedContext = { providers: MarketProviders; now: () => Date; observedDate: string };

export type FeedDef = {
  feed: string;
  description: string;
  entities: string[];
  fetch(entity: string, ctx: FeedContext): Promise<unknown>;
  summarize(payload: unknown): Record<string, unknown>;
};

/** What the archive's read operations cover: the feeds and entities archived, as their coverage states it. */
export function archivedFeedsCoverage(feeds: readonly FeedDef[]): { summary: string; entities: { name: string }[] } {
  return {
    summary:
      `Feeds archived: ${feeds.map((f) => `${f.feed} (${f.entities.join(", ")})`).join("; ")}. Each is captured once per UTC day ` +
      "from the day this storefront started capturing; GET /api/v1/archive states every feed's first and last captured day.",
    entities: feeds.flatMap((f) => f.entities.map((e) => ({ name: `${f.feed}/${e}` }))),
  };
}
