import { router } from "./init";
import { archiveRouter } from "./routers/archive";
import { catalogRouter } from "./routers/catalog";
import { identityRouter } from "./routers/identity";
import { paymentsRouter } from "./routers/payments";

export const appRouter = router({ catalog: catalogRouter, payments: paymentsRouter, archive: archiveRouter, identity: identityRouter });
export type AppRouter = typeof appRouter;
