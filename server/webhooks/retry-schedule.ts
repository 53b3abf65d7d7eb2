// When a failed delivery is tried again: WEBHOOK_RETRY_SCHEDULE_SECONDS gives the wait before each retry (by default
// 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h: ten attempts over about three days, as Stripe retries for three
// days), each stretched or shortened by up to 10% so the retries of one outage do not all arrive at once.
export function parseRetrySchedule(setting: string): number[] {
  return setting.split(",").map((s) => Math.round(Number(s) * 1000));
}

/**
 * After `attempts` attempts, the last of which failed: milliseconds until the next, or null to give up. `maxAttempts`
 * (a resend's one more attempt) ends the schedule early.
 */
export function nextRetryDelay(attempts: number, maxAttempts: number | null, delaysMs: number[], random: () => number = Math.random): number | null {
  if (maxAttempts != null && attempts >= maxAttempts) return null;
  const d = delaysMs[attempts - 1];
  if (d === undefined) return null;
  return Math.round(d * (0.9 + 0.2 * random()));
}
