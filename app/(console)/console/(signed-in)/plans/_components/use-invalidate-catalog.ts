"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";

/** After a catalog change: the plans, the catalog and the audit log are read again. */
export function useInvalidateCatalog() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: trpc.catalog.plans.queryKey() }),
      qc.invalidateQueries({ queryKey: trpc.catalog.overview.queryKey() }),
      qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() }),
    ]);
}
