import assert from "node:assert/strict";
import {
  account,
  adminTest,
  call,
  stationBody as station,
  testApp,
  unitIds,
  zoneBody as flatZoneBody,
} from "./_helpers.ts";

/** A tiered zone body. */
function zoneBody(over: Record<string, unknown> = {}) {
  return flatZoneBody({
    name: "Monterrey Residencial",
    enable_levels: true,
    levels: [{ price: 1.08, threshold: 75 }, { price: 1.32, threshold: 140 }, {
      price: 3.85,
      threshold: 0,
    }],
    ...over,
  });
}

function stationBody(zoneId: number) {
  return station({
    name: "Zoned",
    serial: "ZN-1",
    stationId: "zn_1",
    zoneId,
    mqtt: { username: "zn-1", password: "zone-pw-0123456789" },
    units: unitIds(2),
  });
}

adminTest(
  "POST /api/zones creates a zone (201) with levels mapped by position",
  async ({ t, admin }) => {
    const res = await call(t, "POST", "/api/zones", { token: admin.token, json: zoneBody() });
    assert.equal(res.status, 201);
    const z = await res.json();
    assert.equal(typeof z.id, "number");
    assert.equal(z.price_low, 1.08);
    assert.equal(z.price_middle_threshold, 140);
    assert.equal(z.price_high, 3.85);
    assert.equal(z.price_surplus, 0);
    assert.equal(z.distribution_price, 0);
    assert.ok(z.updated_at);
  },
);

adminTest(
  "GET /api/zones lists zones with station_count; stations lists the zone's stations",
  async ({ t, admin }) => {
    const z = await (await call(t, "POST", "/api/zones", { token: admin.token, json: zoneBody() }))
      .json();
    const st = await call(t, "POST", "/api/devices", {
      token: admin.token,
      json: stationBody(z.id),
    });
    assert.equal(st.status, 201, await st.clone().text());
    const { zones: list } = await (await call(t, "GET", "/api/zones", { token: admin.token }))
      .json();
    assert.equal(list.length, 1);
    assert.equal(list[0].station_count, 1);
    const one = await (await call(t, "GET", `/api/zones/${z.id}`, { token: admin.token })).json();
    assert.equal(one.station_count, 1);
    const { stations } = await (await call(t, "GET", `/api/zones/${z.id}/stations`, {
      token: admin.token,
    })).json();
    assert.equal(stations.length, 1);
    assert.deepEqual(Object.keys(stations[0]).sort(), [
      "id",
      "location",
      "name",
      "payment_status",
      "serial_number",
      "status",
      "units_count",
    ]);
    assert.equal(stations[0].units_count, 2);
  },
);

adminTest(
  "PUT /api/zones/{id} updates the zone and keeps every price change in the history",
  async ({ t, admin }) => {
    const z = await (await call(t, "POST", "/api/zones", { token: admin.token, json: zoneBody() }))
      .json();
    const res = await call(t, "PUT", `/api/zones/${z.id}`, {
      token: admin.token,
      json: zoneBody({ name: "Renamed", levels: [{ price: 2, threshold: 100 }] }),
    });
    assert.equal(res.status, 200);
    const u = await res.json();
    assert.equal(u.name, "Renamed");
    assert.equal(u.price_low, 2);
    assert.equal(u.price_middle, 0);
    const { history: h } = await (await call(t, "GET", `/api/zones/${z.id}/history`, {
      token: admin.token,
    })).json();
    assert.deepEqual(h.map((e: { price_low: number }) => e.price_low), [2, 1.08]);
    assert.deepEqual(Object.keys(h[0]).sort(), [
      "effective_from",
      "price_high",
      "price_low",
      "price_middle",
      "price_surplus",
      "summer_price_low",
      "winter_price_low",
    ]);
  },
);

adminTest(
  "DELETE /api/zones/{id} is refused (409) while stations are assigned",
  async ({ t, admin }) => {
    const z = await (await call(t, "POST", "/api/zones", { token: admin.token, json: zoneBody() }))
      .json();
    const st = await (await call(t, "POST", "/api/devices", {
      token: admin.token,
      json: stationBody(z.id),
    })).json();
    const res = await call(t, "DELETE", `/api/zones/${z.id}`, { token: admin.token });
    assert.equal(res.status, 409);
    assert.equal(
      (await res.json()).message,
      "Cannot delete zone with assigned stations. Please remove all stations first.",
    );
    assert.equal((await call(t, "GET", `/api/zones/${z.id}`, { token: admin.token })).status, 200);
    await (await call(t, "DELETE", `/api/devices/${st.id}`, { token: admin.token })).body?.cancel();
    const ok = await call(t, "DELETE", `/api/zones/${z.id}`, { token: admin.token });
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    assert.equal((await call(t, "GET", `/api/zones/${z.id}`, { token: admin.token })).status, 404);
  },
);

Deno.test("bad zone bodies get 400 with the spec's messages and nothing is written", async () => {
  const t = await testApp();
  const admin = await account(t, "admin", { language: "en" });
  const bad = async (json: unknown) => {
    const res = await call(t, "POST", "/api/zones", { token: admin.token, json });
    assert.equal(res.status, 400);
    return (await res.json()).errors;
  };
  assert.equal((await bad(zoneBody({ name: " " }))).name, "Zone name is required");
  assert.equal(
    (await bad(zoneBody({ levels: [{ price: -1, threshold: 10 }] })))["levels.0.price"],
    "Price cannot be negative",
  );
  assert.equal(
    (await bad(zoneBody({ levels: [] }))).levels,
    "At least one pricing level is required",
  );
  assert.equal(
    (await bad(zoneBody({ levels: Array(5).fill({ price: 1, threshold: 1 }) }))).levels,
    "Maximum 4 pricing levels allowed",
  );
  assert.equal(
    (await bad(zoneBody({ tax_percentage: 101 }))).tax_percentage,
    "Tax percentage must be between 0 and 100",
  );
  assert.equal(
    (await bad(zoneBody({ customer_commission: -1 }))).customer_commission,
    "Commission percentage must be between 0 and 100",
  );
  assert.equal(
    (await bad(zoneBody({ seasonal_tariff: true, winter_start_month: 13 }))).winter_start_month,
    "Month must be between 1 and 12",
  );
  assert.equal(
    (await bad(zoneBody({ enable_levels: false, price_low: -2 }))).price_low,
    "Price per kWh cannot be negative",
  );
  const notJson = await call(t, "POST", "/api/zones", { token: admin.token, jsonText: "{" });
  assert.equal(notJson.status, 400);
  await notJson.body?.cancel();
  assert.deepEqual(await (await call(t, "GET", "/api/zones", { token: admin.token })).json(), {
    zones: [],
  });
  t.close();
});

adminTest("unknown zone ids get 404 on every zone call", async ({ t, admin }) => {
  for (
    const [m, p] of [
      ["GET", "/api/zones/9"],
      ["GET", "/api/zones/abc"],
      ["PUT", "/api/zones/9"],
      ["GET", "/api/zones/9/stations"],
      ["GET", "/api/zones/9/history"],
      ["DELETE", "/api/zones/9"],
    ]
  ) {
    const res = await call(t, m, p, {
      token: admin.token,
      json: m === "PUT" ? zoneBody() : undefined,
    });
    assert.equal(res.status, 404, `${m} ${p}`);
    assert.equal((await res.json()).message, "Zone not found");
  }
});
