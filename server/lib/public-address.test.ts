// The outbound guard's address rule, fixed cases and generated ones: every spelling of an IPv6 address that embeds a
// private IPv4 address is refused; public IPv6 literals are allowed; nothing throws.
import { describe, expect, it } from "vitest";
import { rng } from "../testing/random";
import { isPublicAddress, literalHostAllowed } from "./public-address";

const PRIVATE_V4 = ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1"];

/** The hex spelling of an IPv4 address's two 16-bit groups. */
function hexPair(v4: string): string {
  const [a, b, c, d] = v4.split(".").map(Number) as [number, number, number, number];
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

describe("the outbound address guard", () => {
  it("judges IPv4-embedded IPv6 forms by the IPv4 address, and refuses IPv4-compatible ones", () => {
    for (const ip of [
      "::7f00:1",
      "::ffff:0:7f00:1",
      "::ffff:7f00:1",
      "::ffff:127.0.0.1",
      "::127.0.0.1",
      "0:0:0:0:0:ffff:a9fe:a9fe",
      "::FFFF:A9FE:A9FE",
      "::ffff:0:10.0.0.1",
    ])
      expect(isPublicAddress(ip), ip).toBe(false);
    for (const ip of ["::ffff:8.8.8.8", "::ffff:808:808", "::ffff:0:808:808"]) expect(isPublicAddress(ip), ip).toBe(true);
    // The deprecated IPv4-compatible form is never routed: refused even for a public IPv4 address.
    expect(isPublicAddress("::8.8.8.8")).toBe(false);
  });

  it("allows public IPv6 literals and refuses reserved ranges", () => {
    for (const ip of ["2606:4700::1111", "2a00:1450:4001:830::200e", "[2606:4700:4700::1111]"]) expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of ["::", "::1", "fe80::1", "fd00::1", "fc00::1", "ff02::1", "2001:db8::1", "64:ff9b::a00:1", "2002:7f00:1::", "fec0::1", "2001::1"])
      expect(isPublicAddress(ip), ip).toBe(false);
    expect(literalHostAllowed(new URL("https://[2606:4700::1111]/jwks.json"), false)).toBe(true);
    expect(literalHostAllowed(new URL("https://[::ffff:7f00:1]/jwks.json"), false)).toBe(false);
    expect(literalHostAllowed(new URL("https://idp.example.com/jwks.json"), false)).toBe(true);
  });

  it("5,000 generated spellings of private IPv4 addresses in IPv6 forms are all refused; garbage never throws", () => {
    const r = rng(33);
    for (let i = 0; i < 5_000; i++) {
      const v4 = r.pick(PRIVATE_V4).replace(/\d+$/, () => String(r.int(255)));
      const groups = hexPair(v4);
      const upper = (s: string) => (r.next() < 0.5 ? s.toUpperCase() : s);
      const form = r.pick([
        `::ffff:${v4}`,
        `::ffff:${groups}`,
        `0:0:0:0:0:ffff:${groups}`,
        `::ffff:0:${groups}`,
        `0::ffff:0:${v4}`,
        `::${groups}`,
        `::${v4}`,
        `0000:0000:0000:0000:0000:ffff:${groups}`,
      ]);
      expect(isPublicAddress(upper(form)), form).toBe(false);
      const junk = Array.from({ length: r.int(40) }, () => r.pick([":", ".", "f", "0", "::", "[", "]", "%", "g", "1", " "])).join("");
      expect(() => isPublicAddress(junk)).not.toThrow();
    }
  });
});
