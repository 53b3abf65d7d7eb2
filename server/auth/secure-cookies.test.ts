// Session cookies are Secure in production (and wherever the site is https); only this machine's demo over http on a
// loopback host goes without, since browsers drop Secure cookies there.
import { describe, expect, it } from "vitest";
import { parseEnv } from "../env";
import { secureCookies } from "./options";

const base = { DATABASE_URL: "postgresql://u:p@127.0.0.1:5432/db", APP_SECRET: "x".repeat(32), MARKET_UPSTREAM_SECRET: "y".repeat(16) };

describe("secure session cookies", () => {
  it("in production, whatever PUBLIC_URL's scheme, except a loopback demo", () => {
    expect(secureCookies(parseEnv({ ...base, NODE_ENV: "production", PUBLIC_URL: "https://data.example.com" }))).toBe(true);
    expect(secureCookies(parseEnv({ ...base, NODE_ENV: "production", PUBLIC_URL: "http://data.example.com" }))).toBe(true);
    expect(secureCookies(parseEnv({ ...base, NODE_ENV: "production", PUBLIC_URL: "http://localhost:3000" }))).toBe(false);
    expect(secureCookies(parseEnv({ ...base, NODE_ENV: "production", PUBLIC_URL: "http://127.0.0.1:3100" }))).toBe(false);
    expect(secureCookies(parseEnv({ ...base, NODE_ENV: "development", PUBLIC_URL: "https://data.example.com" }))).toBe(true);
    expect(secureCookies(parseEnv({ ...base, NODE_ENV: "development" }))).toBe(false);
  });
});
