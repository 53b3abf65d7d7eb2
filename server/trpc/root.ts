import { router } from "./init";
import { archiveRouter } from "./routers/archive";
import { auditRouter } from "./routers/audit";
import { catalogRouter } from "./routers/catalog";
import { identityRouter } from "./routers/identity";
import { paymentsRouter } from "./routers/payments";

export const appRouter = router({ catalog: catalogRouter, payments: paymentsRouter, archive: archiveRouter, identity: identityRouter, audit: auditRouter });
export type AppRouter = typeof appRouter;
