// The e2e server's stack as the specs see it: the file scripts/e2e-server.ts writes (its chain's RPC URL and its
// database URL; playwright.config.ts names the file for both sides), and one SQL query against that database for the
// facts a page or an API answer does not show (a payment's ledger rows).
import fs from "node:fs";
import pg from "pg";

export function stackEnv(): Record<string, string> {
  const file = process.env.E2E_STACK_FILE;
  if (!file || !fs.existsSync(file)) throw new Error(`the e2e stack file is missing (E2E_STACK_FILE=${file}); run the specs through playwright.config.ts`);
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

export async function query<Row extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: stackEnv().DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<Row>(text, params)).rows;
  } finally {
    await client.end();
  }
}
