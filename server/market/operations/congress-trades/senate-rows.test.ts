// The Senate rows' HTML and text turned into a trade, on cells copied from the committed CSV (eFD's markup as the
// dataset transcribed it).
import { describe, expect, it } from "vitest";
import { amountBounds, htmlText, isoFromUs, tickersOf, tidyName } from "./senate-rows";

const BR =
  "                                                                                                                            <br>                                            ";
const link = (s: string) => `<a href="https://finance.yahoo.com/q?s=${s}" target="_blank">${s}</a>`;

describe("senate rows", () => {
  it("reads every symbol of a ticker cell: a link, an exchange's two, a placeholder and a bare symbol", () => {
    expect(tickersOf(link("IBM"))).toEqual(["IBM"]);
    expect(tickersOf(`${link("RTN")}${BR}${link("RTX")}`)).toEqual(["RTN", "RTX"]);
    expect(tickersOf(`--${BR}${link("VIAC")}`)).toEqual(["VIAC"]);
    expect(tickersOf(`--${BR}VIAC`)).toEqual(["VIAC"]);
    expect(tickersOf("")).toEqual([]);
  });

  it("turns eFD's fragments into text, entities decoded", () => {
    expect(htmlText('UBS Contingent Autocall Bank of America <div class="text-muted"><em>Rate/Coupon:</em> 8.1%<br> <em>Matures:</em> 12/30/2022</div>')).toBe(
      "UBS Contingent Autocall Bank of America Rate/Coupon: 8.1% / Matures: 12/30/2022",
    );
    expect(htmlText("DuPont de Nemours, Inc. (Exchanged) <br> International Flavors &amp; Fragrances Inc. (Received)")).toBe(
      "DuPont de Nemours, Inc. (Exchanged) / International Flavors & Fragrances Inc. (Received)",
    );
    expect(htmlText("W.L. Gore &amp; Associates, Inc. &nbsp;(Newark, DE)")).toBe("W.L. Gore & Associates, Inc. (Newark, DE)");
  });

  it("states a range's bounds only as published", () => {
    expect(amountBounds("$1,001 - $15,000")).toEqual({ min: 1001, max: 15000 });
    expect(amountBounds("$5,000,001 - $25,000,000")).toEqual({ min: 5000001, max: 25000000 });
    expect(amountBounds("Over $50,000,000")).toEqual({ min: 50000000, max: null });
    expect(amountBounds("Unknown")).toEqual({ min: null, max: null });
  });

  it("tidies the source's stray spaces and commas in names, and reads eFD dates strictly", () => {
    expect(tidyName("Jerry Moran,  ")).toBe("Jerry Moran");
    expect(tidyName("David A Perdue , Jr")).toBe("David A Perdue, Jr");
    expect(isoFromUs("03/10/2021")).toBe("2021-03-10");
    expect([isoFromUs("02/30/2021"), isoFromUs("2021-03-10"), isoFromUs("--")]).toEqual([null, null, null]);
  });
});
