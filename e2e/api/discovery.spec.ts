import { Validator } from "@seriousme/openapi-schema-validator";
import { expect, test } from "@playwright/test";

// SERVICE.md part 8, exactly.
const PART_8_PRICES: Record<string, string> = {
  aggregates: "0.020000",
  archive: "0.020000",
  archive_feed: "0.020000",
  archive_range: "0.030000",
  avg_interest_rates: "0.010000",
  backtest: "0.500000",
};

type OpenApiDoc = {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, { operationId: string; "x-payment-info"?: { priceUsd: string; meter: string } }>>;
};
const opIds = (doc: OpenApiDoc) => Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));

test.describe("discovery", () => {
  test("openapi.json is a valid OpenAPI 3.1 document with every operation priced from the catalog", async ({ request }) => {
    const all: OpenApiDoc[] = [];
    let url: string | null = "/openapi.json";
    while (url) {
      const res = await request.get(url);
      expect(res.status()).toBe(200);
      const doc = (await res.json()) as OpenApiDoc;
      const result = await new Validator().validate(doc as never);
      expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
      expect(result.valid).toBe(true);
      expect(doc.openapi).toBe("3.1.0");
      all.push(doc);
      url = (doc.info["x-next"] as string | undefined) ?? null;
    }
    const ids = all.flatMap(opIds);
    for (const id of [
      "aggregates",
      "archive_catalog",
      "archive_day",
      "archive_range",
      "avg_interest_rates",
      "backtest",
      "basis",
      "advisor_guide",
      "advisor_quote",
      "manifest",
      "agent_identity",
      "oauth_token",
    ])
      expect(ids).toContain(id);
    const aggregates = all.map((d) => d.paths["/api/v1/aggregates/{ticker}"]?.get).find(Boolean)!;
    // MPP's discovery draft: the USD price beside `offers`, each offer's amount in its asset's base units.
    expect(aggregates["x-payment-info"]).toMatchObject({
      priceUsd: "0.020000",
      amountMicros: "20000",
      meter: "aggregates",
      offers: expect.arrayContaining([expect.objectContaining({ protocol: "mpp", intent: "charge", method: "evm", amount: "20000" })]),
    });
  });

  test("the market operations' OpenAPI text states their rules (bucketing, backtest entries and exits, warm-up, years)", async ({ request }) => {
    type Op = { description: string; parameters: { name: string; description?: string }[] };
    const op = async (path: string) => {
      const doc = (await (await request.get("/openapi.json", { params: { path } })).json()) as { paths: Record<string, { get: Op }> };
      return doc.paths[path]!.get;
    };
    const param = (o: Op, name: string) => o.parameters.find((p) => p.name === name)?.description ?? "";
    const backtest = await op("/api/v1/backtest/{ticker}");
    expect(backtest.description).toContain("sma_cross buys only on a crossover");
    expect(backtest.description).toContain("sells when fast crosses below slow");
    expect(backtest.description).toContain("Indicators run over all the history before the window");
    expect(param(backtest, "years")).toContain("Calendar years back from the last bar");
    const aggregates = await op("/api/v1/aggregates/{ticker}");
    expect(aggregates.description).toContain("buckets are whole calendar periods");
    expect(param(aggregates, "limit")).toContain("A bucket the limit cuts short is not returned");
  });

  test("q ranks the average interest rates operation first for 'treasury interest'", async ({ request }) => {
    const res = await request.get("/openapi.json", { params: { q: "treasury interest" } });
    expect(res.status()).toBe(200);
    const doc = (await res.json()) as OpenApiDoc;
    expect(opIds(doc)[0]).toBe("avg_interest_rates");
  });

  test("pages hold at most 10 operations, with info.x-next and a Link header to the next page", async ({ request }) => {
    const first = await request.get("/openapi.json");
    const doc1 = (await first.json()) as OpenApiDoc;
    expect(opIds(doc1).length).toBe(10);
    const total = doc1.info["x-total-operations"] as number;
    expect(total).toBeGreaterThan(10);
    const next = doc1.info["x-next"] as string;
    expect(next).toMatch(/\/openapi\.json\?page=2$/);
    expect(first.headers()["link"]).toBe(`<${next}>; rel="next"`);
    const doc2 = (await (await request.get(next)).json()) as OpenApiDoc;
    const seen = new Set([...opIds(doc1), ...opIds(doc2)]);
    expect(seen.size).toBe(opIds(doc1).length + opIds(doc2).length); // no operation on two pages
    expect(doc2.info["x-page"]).toBe(2);
  });

  test("plain /openapi.json says in words that it is one page of several, and where the next is", async ({ request }) => {
    const doc1 = (await (await request.get("/openapi.json")).json()) as OpenApiDoc;
    const [pages, total, next] = [doc1.info["x-pages"], doc1.info["x-total-operations"], doc1.info["x-next"]] as [number, number, string];
    // What a generic OpenAPI tool or a model shows first: the description.
    expect(doc1.info.description).toMatch(new RegExp(`^This document is page 1 of ${pages}: operations of this storefront 1 to 10 of ${total}, `));
    expect(doc1.info.description).toContain(`The next page is ${next} `);
    const last = (await (await request.get(`/openapi.json?page=${pages}`)).json()) as OpenApiDoc;
    expect(last.info.description).toMatch(new RegExp(`^This document is page ${pages} of ${pages}: .*This is the last page;`));
    expect(last.info["x-next"]).toBeUndefined();
    const one = (await (await request.get("/openapi.json", { params: { service: "market-archive" } })).json()) as OpenApiDoc;
    expect(one.info.description).toMatch(/^All 3 operations matching the filters are in this document\. /);
  });

  test("filters combine: service, method and path", async ({ request }) => {
    const archive = (await (await request.get("/openapi.json", { params: { service: "market-archive" } })).json()) as OpenApiDoc;
    expect(opIds(archive).sort()).toEqual(["archive_catalog", "archive_day", "archive_range"]);
    const post = (await (await request.get("/openapi.json", { params: { method: "post", service: "agent-advisor" } })).json()) as OpenApiDoc;
    expect(opIds(post)).toEqual(["advisor_quote"]);
    const byPath = (await (await request.get("/openapi.json", { params: { path: "/api/v1/aggregates/AAPL" } })).json()) as OpenApiDoc;
    expect(opIds(byPath)).toEqual(["aggregates"]);
    const combined = (await (await request.get("/openapi.json", { params: { q: "snapshot", path: "/api/v1/archive" } })).json()) as OpenApiDoc;
    expect(opIds(combined).every((id) => id.startsWith("archive"))).toBe(true);
    const one = (await (await request.get("/services/us-macro-rates/openapi.json")).json()) as OpenApiDoc;
    expect(opIds(one)).toEqual(["avg_interest_rates"]);
  });

  test("manifest prices equal SERVICE.md part 8, with plans and included units", async ({ request }) => {
    const res = await request.get("/manifest.json");
    expect(res.status()).toBe(200);
    const m = await res.json();
    const prices = Object.fromEntries(m.meters.map((x: { key: string; priceUsd: string }) => [x.key, x.priceUsd]));
    for (const [meter, price] of Object.entries(PART_8_PRICES)) expect(prices[meter], meter).toBe(price);
    for (const meter of m.meters) expect(meter.includedUnits).toBe(0);
    const slugs = m.services.map((s: { slug: string }) => s.slug);
    expect(slugs).toEqual(expect.arrayContaining(["stock-quotes", "market-archive", "us-macro-rates", "screeners-scores-research"]));
    const payg = m.plans.find((p: { kind: string }) => p.kind === "payg");
    expect(payg.purchase).toBeNull();
    const credit = m.plans.find((p: { kind: string }) => p.kind === "credit");
    expect(credit.purchase).toMatchObject({
      minimumUsd: expect.stringMatching(/^\d+\.\d\d$/),
      maximumUsd: expect.stringMatching(/^\d+\.\d\d$/),
      cardMinimumUsd: "0.50",
    });
    expect(credit.purchase.url).toMatch(new RegExp(`/plans/${credit.id}/purchase$`));
  });

  test("the service catalog lists every service", async ({ request }) => {
    const res = await request.get("/services");
    const body = await res.json();
    expect(body.services.map((s: { slug: string }) => s.slug)).toEqual(
      expect.arrayContaining(["stock-quotes", "market-archive", "us-macro-rates", "screeners-scores-research", "agent-advisor", "storefront"]),
    );
  });

  test("the free guide recommends an operation for a goal", async ({ request }) => {
    const res = await request.get("/vendor/agent/guide", { params: { goal: "treasury interest rates" } });
    expect(res.status()).toBe(200);
    const g = await res.json();
    expect(g.recommendations[0]).toMatchObject({ operation: "avg_interest_rates", price_usd: "0.010000" });
    const post = await request.post("/vendor/agent/guide", { data: { goal: "backtest a moving average strategy" } });
    expect((await post.json()).recommendations[0].operation).toBe("backtest");
  });
});

test.describe("malformed discovery queries get JSON 4xx, never a 500", () => {
  const cases: [string, number, string][] = [
    ["/openapi.json?page=abc", 400, "invalid_request"],
    ["/openapi.json?page=0", 400, "invalid_request"],
    ["/openapi.json?page=-1", 400, "invalid_request"],
    ["/openapi.json?page=99999", 400, "invalid_request"],
    ["/openapi.json?page=1&page=2", 400, "invalid_request"],
    ["/openapi.json?service=no-such-service", 404, "service_not_found"],
    ["/openapi.json?service=%00%FF", 400, "invalid_request"],
    [`/openapi.json?q=${"x".repeat(5000)}`, 400, "invalid_request"],
    ["/openapi.json?method=TRACE", 400, "invalid_request"],
    ["/openapi.json?path=relative", 400, "invalid_request"],
    ["/services/no-such-service/openapi.json", 404, "service_not_found"],
    ["/vendor/agent/guide", 400, "invalid_request"],
    ["/no/such/path", 404, "not_found"],
  ];
  for (const [url, status, code] of cases) {
    test(`${url.slice(0, 60)} -> ${status} ${code}`, async ({ request }) => {
      const res = await request.get(url);
      expect(res.status()).toBe(status);
      expect(res.headers()["content-type"]).toContain("application/json");
      const body = await res.json();
      expect(body.error).toBe(code);
      if (status === 400) expect(body.detail).toBeTruthy();
    });
  }

  test("a wrong method is a JSON 405 with Allow", async ({ request }) => {
    const res = await request.delete("/manifest.json");
    expect(res.status()).toBe(405);
    expect(res.headers()["allow"]).toContain("GET");
    expect((await res.json()).error).toBe("method_not_allowed");
  });

  test("malformed JSON to the guide is invalid_request", async ({ request }) => {
    const res = await request.post("/vendor/agent/guide", { data: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status()).toBe(400);
    expect((await res.json()).error).toBe("invalid_request");
  });

  test("an unknown host is seller_not_found", async ({ request }) => {
    const res = await request.get("/manifest.json", { headers: { host: "nobody.example" } });
    expect(res.status()).toBe(404);
    expect(await res.json()).toMatchObject({ error: "seller_not_found" });
  });

  test("CORS preflight answers with the payment headers allowed", async ({ request }) => {
    const res = await request.fetch("/openapi.json", { method: "OPTIONS" });
    expect(res.status()).toBe(204);
    expect(res.headers()["access-control-allow-headers"]).toContain("PAYMENT-SIGNATURE");
  });
});

test("a second seller host serves its own catalog", async ({ request }) => {
  const res = await request.get("/manifest.json", { headers: { host: "second-seller.localhost" } });
  expect(res.status()).toBe(200);
  expect((await res.json()).seller.name).toBe("Second Seller Data");
});

test.describe("plan purchase rules", () => {
  test("unknown plan, pay-as-you-go, and the amount rules answer with their part 7 codes", async ({ request }) => {
    const m = await (await request.get("/manifest.json")).json();
    const payg = m.plans.find((p: { kind: string }) => p.kind === "payg");
    const credit = m.plans.find((p: { slug: string }) => p.slug === "research-credits");
    const post = async (url: string, data?: unknown) => {
      const res = await request.post(url, data === undefined ? {} : { data });
      return { status: res.status(), body: await res.json() };
    };
    expect(await post("/plans/pln_nope/purchase", { amountUsd: "10.00" })).toMatchObject({ status: 404, body: { error: "plan_not_found" } });
    expect(await post(`/plans/${payg.id}/purchase`, { amountUsd: "10.00" })).toMatchObject({ status: 400, body: { error: "payg_not_purchasable" } });
    expect(await post(`/plans/${credit.id}/purchase`, {})).toMatchObject({ status: 400, body: { error: "amount_required" } });
    expect(await post(`/plans/${credit.id}/purchase`, { amountUsd: "10.005" })).toMatchObject({ status: 400, body: { error: "amount_not_cent_increment" } });
    expect(await post(`/plans/${credit.id}/purchase`, { amountUsd: "1.00" })).toMatchObject({ status: 400, body: { error: "amount_below_minimum" } });
    expect(await post(`/plans/${credit.id}/purchase`, { amountUsd: "9999.00" })).toMatchObject({ status: 400, body: { error: "amount_above_maximum" } });
    // A valid purchase asks who buys: the agent credential the credit is for (then a 402 for the amount).
    expect(await post(`/plans/${credit.id}/purchase`, { amountUsd: "25.00" })).toMatchObject({ status: 401, body: { error: "bearer_required" } });
    const bad = await request.post(`/plans/${credit.id}/purchase`, { data: "{oops", headers: { "content-type": "application/json" } });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).error).toBe("invalid_request");
  });
});
