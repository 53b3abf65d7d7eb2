// The list the registry (./index.ts) fills from ./registry.ts. Production code reads it through ./index.ts
// (`OPERATIONS`, typed read-only); a test adds its fixture operation to it (server/testing/operations.ts). The
// architecture rules hold that nothing else imports this file or ./registry.ts, so no production code adds an operation.
import type { DataOperation } from "./operation";

export const registered: DataOperation[] = [];
