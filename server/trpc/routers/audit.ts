import { z } from "zod";
import { getAuditFilterOptions, listAuditLog } from "../../audit/list-audit-log";
import { router, sellerProcedure } from "../init";
import { auditFilterOptionsOutput } from "../outputs/misc";
import { auditListOutput } from "../outputs/payments";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const auditRouter = router({
  // Read-only: the log has no write procedure; rows are written by the changes they record (server/audit).
  list: sellerProcedure
    .input(
      z
        .object({
          cursor: z.string().max(100).nullish(),
          actions: z.array(z.string().max(64)).max(20).optional(),
          targetType: z.string().max(64).optional(),
          targetId: z.string().max(128).optional(),
          actorId: z.string().max(64).optional(),
          from: day.optional(),
          to: day.optional(),
        })
        .prefault({}),
    )
    .output(auditListOutput)
    .query(({ ctx, input }) => listAuditLog(ctx.seller.id, input)),
  filterOptions: sellerProcedure.output(auditFilterOptionsOutput).query(({ ctx }) => getAuditFilterOptions(ctx.seller.id)),
});
