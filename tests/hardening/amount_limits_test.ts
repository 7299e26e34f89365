/** Prices, fees and thresholds have a sane maximum; a refusal names the field and writes nothing. */
import assert from "node:assert/strict";
import { account, call, testApp, zoneBody } from "../_helpers.ts";

const ZONE = zoneBody({ price_low: 1.2 });

Deno.test("a zone with a price, fee or threshold of 1e308 is refused naming the field", async () => {
  const t = await testApp();
  const admin = await account(t, "admin");
  for (
    const [field, over] of [
      ["price_low", { price_low: 1e308 }],
      ["customer_fee", { customer_fee: 1e308 }],
      ["base_tariff", { base_tariff: 5e6 }],
      ["levels", {
        enable_levels: true,
        levels: [{ price: 1, threshold: 1e12 }, { price: 2, threshold: 0 }],
      }],
    ] as const
  ) {
    const res = await call(t, "POST", "/api/zones", {
      token: admin.token,
      json: { ...ZONE, ...over },
      cookie: "auth_language=en",
    });
    assert.equal(res.status, 400, field);
    const errors = (await res.json()).errors as Record<string, string>;
    const key = Object.keys(errors).find((k) => k.startsWith(field));
    assert.ok(key, `${field}: ${JSON.stringify(errors)}`);
    assert.match(errors[key!], /1,000,000/);
  }
  const ok = await call(t, "POST", "/api/zones", { token: admin.token, json: ZONE });
  assert.equal(ok.status, 201, await ok.clone().text());
  const list = await (await call(t, "GET", "/api/zones", { token: admin.token })).json();
  assert.equal(list.zones.length, 1);
  t.close();
});
