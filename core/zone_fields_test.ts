import assert from "node:assert/strict";
import { defaultZone, zoneFormSchema } from "./zone.ts";
import {
  changedVersionFields,
  IDENTITY_FIELDS,
  isPriceChange,
  VERSION_FIELDS,
  ZONE_FIELD_NAMES,
  zoneWithVersion,
} from "./zone_fields.ts";

Deno.test("every field the zone body accepts has its place: identity or version, none left out", () => {
  // The level lists are read into the price fields; effective_from chooses the version.
  const input = ["levels", "summer_levels", "winter_levels", "effective_from"];
  const accepted = Object.keys(zoneFormSchema.shape).filter((k) => !input.includes(k)).sort();
  assert.deepEqual(accepted, [...ZONE_FIELD_NAMES].sort());
  assert.deepEqual(IDENTITY_FIELDS, ["name", "billing_type"]);
  assert.equal(IDENTITY_FIELDS.length + VERSION_FIELDS.length, ZONE_FIELD_NAMES.length);
});

Deno.test("a zone on a day: identity from the zone, every other field from the version alone", () => {
  const saved = {
    ...defaultZone("Renamed"),
    billing_type: "bimonthly" as const,
    customer_commission: 25,
    fixed_charge_monthly: 50,
    id: 7,
    updated_at: "2026-04-10T18:00:00.000Z",
  };
  const version = { ...defaultZone("Old"), customer_commission: 10, currency: "USD" as const };
  const z = zoneWithVersion(saved, version);
  assert.partialDeepStrictEqual(z, {
    id: 7,
    updated_at: "2026-04-10T18:00:00.000Z",
    name: "Renamed",
    billing_type: "bimonthly",
    customer_commission: 10,
    currency: "USD",
  });
  // The saved zone's fixed charge belongs to another version: this one has none.
  assert.equal("fixed_charge_monthly" in z, false);
});

Deno.test("changed fields: an absent addition is off, identity is no version change, terms are no price change", () => {
  const a = defaultZone("A");
  assert.deepEqual(
    changedVersionFields(a, { ...a, minimum_monthly_kwh: 0, tariff_preset: "" }),
    [],
  );
  assert.deepEqual(changedVersionFields(a, { ...a, name: "B", billing_type: "bimonthly" }), []);
  const terms = changedVersionFields(a, { ...a, customer_commission: 25, customer_tax: 8 });
  assert.deepEqual(terms, ["customer_commission", "customer_tax"]);
  assert.equal(isPriceChange(terms), false);
  for (
    const change of [
      { currency: "EUR" as const },
      { enable_levels: true },
      { dac_limit_kwh: 300 },
      { compensation_factor_percentage: 5 },
      { winter_end_day: 30 },
    ]
  ) {
    const fields = changedVersionFields(a, { ...a, ...change });
    assert.deepEqual(fields, Object.keys(change));
    assert.equal(isPriceChange(fields), true, Object.keys(change)[0]);
  }
});
