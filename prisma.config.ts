import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

// Prisma runs here with its JS/Wasm engines only (no native engine downloads): see TOOLCHAIN notes in README.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL is not set (the demo and test scripts set it for you)");
    return new PrismaPg({ connectionString, idleTimeoutMillis: 50, allowExitOnIdle: true });
  },
});
