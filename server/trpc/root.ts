import { router } from "./init";
import { catalogRouter } from "./routers/catalog";

export const appRouter = router({ catalog: catalogRouter });
export type AppRouter = typeof appRouter;
