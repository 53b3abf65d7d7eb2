// The readiness probe's reads: one trivial statement, and the migrations PostgreSQL has applied (read until every
// shipped one is there, then never again: health.ts).
import { sql } from "../db/client";

export async function pingDatabase(): Promise<void> {
  await sql("select 1");
}

export async function appliedMigrations(): Promise<string[]> {
  const { rows } = await sql<{ migration_name: string }>(
    "select migration_name from _prisma_migrations where finished_at is not null and rolled_back_at is null",
  );
  return rows.map((r) => r.migration_name);
}
