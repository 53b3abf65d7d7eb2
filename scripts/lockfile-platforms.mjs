// Keeps package-lock.json installable with `npm ci` when the registry in use serves only this machine's
// platform binaries. npm then leaves other platforms' optional packages (@next/swc-darwin-arm64, ...) out of
// the lock, and `npm ci` refuses the lock as "missing" them. This adds an entry for each such optional
// dependency with its os/cpu, so npm ci accepts the lock and skips them on non-matching platforms.
// Run after any `npm install`: node scripts/lockfile-platforms.mjs
import fs from "node:fs";

const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
const pkgs = lock.packages;
const OS = {
  darwin: "darwin",
  linux: "linux",
  win32: "win32",
  freebsd: "freebsd",
  android: "android",
  openbsd: "openbsd",
  sunos: "sunos",
  aix: "aix",
  netbsd: "netbsd",
};
const CPU = {
  amd64: "x64",
  x64: "x64",
  arm64: "arm64",
  arm: "arm",
  ia32: "ia32",
  s390x: "s390x",
  ppc64: "ppc64",
  riscv64: "riscv64",
  loong64: "loong64",
  mips64el: "mips64el",
  wasm32: "wasm32",
};

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.map((p) => OS[p] ?? (p === "windows" ? "win32" : p === "macos" ? "darwin" : undefined)).find(Boolean);
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  const libc = parts.includes("musl") ? "musl" : parts.includes("gnu") || parts.includes("gnueabihf") ? "glibc" : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [loc, meta] of Object.entries(pkgs)) {
  for (const [dep, spec] of Object.entries(meta.optionalDependencies ?? {})) {
    const base = loc ? `${loc}/node_modules/${dep}` : `node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (pkgs[base] || pkgs[hoisted]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os && !cpu && !dep.includes("wasm")) continue;
    pkgs[hoisted] = {
      version: String(spec).replace(/^[\^~=]/, ""),
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : dep.includes("wasm") ? { cpu: ["wasm32"] } : {}),
      ...(libc ? { libc: [libc] } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)));
fs.writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lockfile-platforms: added ${added} optional platform entries`);
