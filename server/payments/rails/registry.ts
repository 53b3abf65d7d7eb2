// The registry's one list, filled by ./index.ts with the built-in rails. Production code reads it through ./index.ts
// (`RAILS`, typed read-only); test helpers add a rail of their own to it (server/testing/rails.ts). The architecture
// rules hold that nothing else imports this file, so no production code can change which rails exist.
import type { Rail } from "./rail";

export const registered: Rail[] = [];
