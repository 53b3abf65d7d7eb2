import { describe, expect, it } from "vitest";
import { originParts } from "./origin-parts";

describe("originParts", () => {
  it("gives an origin's host with its port, its host name and its scheme, the same object each time", () => {
    expect(originParts("http://127.0.0.1:3260")).toEqual({ host: "127.0.0.1:3260", hostname: "127.0.0.1", proto: "http" });
    expect(originParts("https://shop.example")).toEqual({ host: "shop.example", hostname: "shop.example", proto: "https" });
    expect(originParts("https://shop.example")).toBe(originParts("https://shop.example"));
    expect(Object.isFrozen(originParts("https://shop.example"))).toBe(true);
  });
});
