// What each console procedure returns, as the browser receives it (from the output schemas in server/trpc/outputs).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

export type Outputs = inferRouterOutputs<AppRouter>;
