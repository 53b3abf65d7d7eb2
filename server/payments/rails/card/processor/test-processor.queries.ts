// The built-in test processor's storage: its objects by id, each with the idempotency key of the call that made it,
// in PostgreSQL so it behaves like a processor shared by every instance and survives restarts (the reconciler asks
// it what happened after a crash). A unit of work runs in one transaction, holding the rows it reads for update.
import { db, type Tx } from "../../../../db/client";
import type { Prisma } from "../../../../db/generated/client";

export type TestObject = { id: string; kind: string; data: Record<string, unknown> };

export type TestStore = {
  /** An object by id, locked until the unit of work ends. */
  get(id: string): Promise<TestObject | null>;
  /** An object by the idempotency key of the call that made it. */
  byKey(key: string): Promise<TestObject | null>;
  put(id: string, kind: string, data: Record<string, unknown>, idempotencyKey?: string): Promise<void>;
};

function store(tx: Tx): TestStore {
  return {
    async get(id) {
      const rows = await tx.$queryRaw<TestObject[]>`select id, kind, data from test_processor_objects where id = ${id} for update`;
      return rows[0] ?? null;
    },
    async byKey(key) {
      const rows = await tx.$queryRaw<TestObject[]>`select id, kind, data from test_processor_objects where idempotency_key = ${key} for update`;
      return rows[0] ?? null;
    },
    async put(id, kind, data, idempotencyKey) {
      const json = data as Prisma.InputJsonValue;
      await tx.testProcessorObject.upsert({
        where: { id },
        create: { id, kind, data: json, idempotencyKey: idempotencyKey ?? null },
        update: { data: json },
      });
    },
  };
}

/**
 * One unit of work of the test processor, atomic. Two calls with one idempotency key serialise on the key (an
 * advisory lock per key), so the second sees what the first made instead of making it again.
 */
export async function inTestProcessor<T>(idempotencyKey: string | null, fn: (s: TestStore) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx: Tx) => {
    if (idempotencyKey) await tx.$executeRaw`select pg_advisory_xact_lock(hashtextextended(${`test-processor:${idempotencyKey}`}, 0))`;
    return fn(store(tx));
  });
}
