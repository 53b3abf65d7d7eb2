// This process's lease book (./lease-book.ts): one per process, listening from its first use, returned at shutdown.
import { LeaseBook } from "./lease-book";
import { listenForLeaseNotices } from "./leases.queries";

/** This process's book, listening from its first use. Whichever bundle loaded this module, the same one. */
export function leaseBook(): LeaseBook {
  const g = globalThis as unknown as { __leaseBook?: LeaseBook };
  if (!g.__leaseBook) {
    g.__leaseBook = new LeaseBook();
    listenForLeaseNotices(g.__leaseBook);
  }
  return g.__leaseBook;
}

/** At shutdown, this instance's spent calls are written and its leases returned (a crash leaves them to the reconciler). */
export function returnLeasesOnShutdown(): void {
  const last = () => {
    const book = (globalThis as unknown as { __leaseBook?: LeaseBook }).__leaseBook;
    void book?.returnAll().catch((e) => console.error("[credits] last lease return failed:", e instanceof Error ? e.message : e));
  };
  process.once("SIGTERM", last);
  process.once("SIGINT", last);
  process.once("beforeExit", last);
}
