// Fuzzing what this process reads off every request before Next.js: who the client is, and the path repair. Who the client is: thousands of generated X-Forwarded-For values and stamps (garbage, huge, unicode,
// brackets, ports, zones, empty entries, commas only, spoofed copies of our header) with every hop count. Nothing
// throws; the answer is always null or one canonical IP address; with hops = 0 the client's headers never change it;
// with hops = N it is the Nth entry from the right or the peer. The generator is seeded, so a failure reproduces.
import { isIP } from "node:net";
import { describe, expect, it } from "vitest";
import { canonicalAddress, clientAddress, forwardedAddress, PEER_HEADER } from "./client-address";
import { decodableTarget, installIncomingRequestHooks } from "./incoming-request";
import { clientBudgetKey } from "../rate-limits/rate-limit";

function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick };
}

const PIECES = [
  "203.0.113.7",
  "203.0.113.7:8080",
  "[2001:db8::1]",
  "[2001:db8::1]:443",
  "2001:DB8::1",
  "::ffff:10.1.2.3",
  "fe80::1%eth0",
  "unknown",
  "_hidden",
  "",
  " ",
  "999.1.1.1",
  "1.2.3",
  "[::1",
  "::1]",
  "😀",
  "\u0000",
  "a".repeat(300),
  "1.1.1.1 2.2.2.2",
  "for=192.0.2.60",
  ";",
  "[]",
  "[:::]",
  "0.0.0.0",
  "255.255.255.255",
];

function randomForwardedFor(r: ReturnType<typeof rng>): string {
  if (r.next() < 0.1) return String.fromCharCode(...Array.from({ length: r.int(200) }, () => r.int(0x3000)));
  const n = r.int(r.next() < 0.05 ? 2000 : 8);
  return Array.from({ length: n }, () => r.pick(PIECES)).join(r.pick([",", ", ", " , ", ",,"]));
}

const canonical = (v: string | null) => v === null || (isIP(v) !== 0 && canonicalAddress(v) === v);

describe("fuzzing the client address", () => {
  installIncomingRequestHooks();

  it("forwardedAddress: 5,000 generated X-Forwarded-For values never throw and give null or one canonical address from the header", () => {
    const r = rng(22);
    for (let i = 0; i < 5_000; i++) {
      const xff = randomForwardedFor(r);
      const hops = r.int(12);
      const out = forwardedAddress(xff, hops);
      expect(canonical(out), `${JSON.stringify(xff.slice(0, 200))} hops ${hops} -> ${out}`).toBe(true);
      if (out !== null) {
        const entries = xff.split(",");
        const at = entries[Math.max(0, entries.length - Math.min(hops, entries.length))]!;
        expect(canonicalAddress(at), `${JSON.stringify(xff.slice(0, 200))} hops ${hops}`).toBe(out);
      }
    }
  });

  it("clientAddress: with hops = 0, 2,000 generated client headers (spoofed stamps included) never change the answer", () => {
    const r = rng(2022);
    for (let i = 0; i < 2_000; i++) {
      const headers = new Headers();
      try {
        headers.set("x-forwarded-for", randomForwardedFor(r));
        if (r.next() < 0.5) headers.set(PEER_HEADER, `${r.pick(["", "x", "nonce"])} ${r.pick(PIECES)}`);
      } catch {
        continue; // a value Headers itself refuses (control characters) never reaches a handler
      }
      // No stamp of this process: the client's headers name nobody.
      expect(clientAddress(headers, 0)).toBeNull();
      const behind = clientAddress(headers, 1 + r.int(4));
      expect(canonical(behind)).toBe(true);
    }
  });
});

describe("fuzzing the request target repair", () => {
  it("decodableTarget: 5,000 generated paths: null exactly when the path decodes; otherwise a path that decodes to the bytes sent", () => {
    const r = rng(404);
    const parts = [
      "/",
      "api",
      "v1",
      "%",
      "%2",
      "%zz",
      "%2F",
      "%252F",
      "%E0%A4%A",
      "%C0%AF",
      "%FF",
      "%E2%82%AC",
      "%00",
      "..",
      ".",
      ";x=1",
      "AAPL",
      "?",
      "&",
      "=",
      "%%",
    ];
    for (let i = 0; i < 5_000; i++) {
      const target = "/" + Array.from({ length: 1 + r.int(12) }, () => r.pick(parts)).join("");
      const q = target.indexOf("?");
      const path = q < 0 ? target : target.slice(0, q);
      let decodes = true;
      try {
        decodeURIComponent(path);
      } catch {
        decodes = false;
      }
      const out = decodableTarget(target);
      expect(out === null, target).toBe(decodes);
      if (out !== null) {
        const outPath = out.slice(0, q < 0 ? undefined : out.indexOf("?"));
        expect(decodeURIComponent(outPath), target).toBe(path);
        expect(out.slice(outPath.length), target).toBe(q < 0 ? "" : target.slice(q));
      }
    }
  });
});

describe("fuzzing the client budget key", () => {
  it("clientBudgetKey: 3,000 generated addresses never throw; an IPv6 address counts by its /64, whatever its spelling", () => {
    const r = rng(64);
    const hex = () => r.int(0x10000).toString(16);
    for (let i = 0; i < 3_000; i++) {
      const groups = Array.from({ length: 8 }, hex);
      const canonical = canonicalAddress(groups.join(":"))!;
      const key = clientBudgetKey(canonical);
      expect(key, canonical).toBe(
        `${groups
          .slice(0, 4)
          .map((g) => g.replace(/^0+(?=.)/, ""))
          .join(":")}::/64`,
      );
      // Another address of the same /64, spelled in full with leading zeros and upper case: the same budget.
      const sibling = canonicalAddress([...groups.slice(0, 4).map((g) => g.padStart(4, "0").toUpperCase()), hex(), hex(), hex(), hex()].join(":"))!;
      expect(clientBudgetKey(sibling), `${canonical} ${sibling}`).toBe(key);
      const v4 = `${r.int(256)}.${r.int(256)}.${r.int(256)}.${r.int(256)}`;
      expect(clientBudgetKey(canonicalAddress(v4))).toBe(v4);
      expect(() => clientBudgetKey(r.pick(PIECES))).not.toThrow();
    }
  });
});
