// npm run profile:summary [-- <dir> [case ...]]: where the app server's CPU went, per case of `npm run bench gateway`
// and per call, from the V8 CPU profile the server wrote (SERVER_CPU_PROF=<dir>) and the load windows the bench noted
// in <dir>/windows.json. For each case: CPU per call, idle share, and the functions with the most self time per call,
// grouped as our code, Next.js, node_modules and Node itself. Run the bench on an unminified build (NEXT_UNMINIFIED=1)
// so the profile names the functions (README: Benchmarks).
import fs from "node:fs";
import path from "node:path";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };
type Window = { name: string; calls: number; startUs: number; endUs: number };

function fail(message: string): never {
  console.error(`profile:summary: ${message}`);
  process.exit(1);
}

function where(url: string): string {
  if (!url) return "node";
  if (url.includes("node_modules/next/")) return "next";
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1]!;
  if (url.startsWith("node:")) return "node";
  return "app";
}

function main() {
  const [dirArg, ...only] = process.argv.slice(2);
  const dir = dirArg ?? process.env.SERVER_CPU_PROF ?? fail("name the profile folder (SERVER_CPU_PROF of the bench run)");
  const windowsFile = path.join(dir, "windows.json");
  if (!fs.existsSync(windowsFile)) fail(`${windowsFile} is missing: run \`SERVER_CPU_PROF=${dir} npm run bench gateway\` first`);
  const windows = (JSON.parse(fs.readFileSync(windowsFile, "utf8")) as Window[]).filter((w) => !only.length || only.includes(w.name));
  const profiles = fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  if (!profiles.length) fail(`no .cpuprofile in ${dir}: the server writes it when it stops`);
  // The server process that was up during the windows (next start may fork; take the profile that covers them).
  const loaded = profiles.map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as Profile);
  const profile = loaded.find((p) => windows.every((w) => w.startUs >= p.startTime && w.endUs <= p.endTime)) ?? fail("no profile covers the load windows");

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (node: Node) => {
    const file = node.callFrame.url.split("/").slice(-1)[0] ?? "";
    return `${node.callFrame.functionName || "(anonymous)"} (${where(node.callFrame.url)}${file ? `: ${file}:${node.callFrame.lineNumber + 1}` : ""})`;
  };
  const stamps: number[] = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas) stamps.push((t += d));

  for (const w of windows) {
    const self = new Map<string, number>();
    /** Our functions' inclusive time: each sample counts once for every function of ours on its stack. */
    const inclusive = new Map<string, number>();
    let busyUs = 0;
    let totalUs = 0;
    for (let i = 1; i < profile.samples.length; i++) {
      const at = stamps[i]!;
      if (at < w.startUs || at > w.endUs) continue;
      const dt = at - stamps[i - 1]!;
      totalUs += dt;
      const node = byId.get(profile.samples[i]!)!;
      const name = node.callFrame.functionName || "(anonymous)";
      if (name === "(idle)" || name === "(program)" || name === "(garbage collector)") {
        if (name !== "(idle)") busyUs += dt;
        self.set(name, (self.get(name) ?? 0) + dt);
        continue;
      }
      busyUs += dt;
      const key = label(node);
      self.set(key, (self.get(key) ?? 0) + dt);
      const onStack = new Set<string>();
      for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
        const n = byId.get(id)!;
        if (where(n.callFrame.url) === "app" && n.callFrame.url) onStack.add(label(n));
      }
      for (const k of onStack) inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
    const perCall = (us: number) => (us / w.calls / 1000).toFixed(3);
    const groups = new Map<string, number>();
    for (const [k, us] of self) {
      const g = k.startsWith("(")
        ? k
        : k
            .slice(k.lastIndexOf("(") + 1)
            .split(":")[0]!
            .replace(")", "");
      groups.set(g, (groups.get(g) ?? 0) + us);
    }
    console.log(`\n== ${w.name}: ${w.calls} calls in ${(totalUs / 1000).toFixed(0)} ms, server CPU ${perCall(busyUs)} ms per call`);
    console.log(
      "   by origin (ms per call): " +
        [...groups]
          .filter(([g]) => g !== "(idle)")
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([g, us]) => `${g} ${perCall(us)}`)
          .join(", "),
    );
    console.log("   self time, ms per call:");
    for (const [k, us] of [...self]
      .filter(([k]) => k !== "(idle)")
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25))
      console.log(`   ${perCall(us)}  ${k}`);
    console.log("   our functions, inclusive, ms per call:");
    for (const [k, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`   ${perCall(us)}  ${k}`);
  }
}

main();
