import { router } from "./init";
import { analyticsRouter } from "./routers/analytics";
import { archiveRouter } from "./routers/archive";
import { auditRouter } from "./routers/audit";
import { catalogRouter } from "./routers/catalog";
import { coverageRouter } from "./routers/coverage";
import { customersRouter } from "./routers/customers";
import { identityRouter } from "./routers/identity";
import { paymentsRouter } from "./routers/payments";
import { searchRouter } from "./routers/search";
import { settingsRouter } from "./routers/settings";
import { teamRouter } from "./routers/team";
import { twoStepRouter } from "./routers/two-step";
import { webhooksRouter } from "./routers/webhooks";

export const appRouter = router({
  analytics: analyticsRouter,
  archive: archiveRouter,
  audit: auditRouter,
  catalog: catalogRouter,
  coverage: coverageRouter,
  customers: customersRouter,
  identity: identityRouter,
  payments: paymentsRouter,
  search: searchRouter,
  settings: settingsRouter,
  team: teamRouter,
  twoStep: twoStepRouter,
  webhooks: webhooksRouter,
});
export type AppRouter = typeof appRouter;
