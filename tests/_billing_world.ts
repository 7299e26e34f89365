/** A billing world for the billing tests: a tiered zone, a station, two metered units. */
import assert from "node:assert/strict";
import { account, call, type TestApp, testApp } from "./_helpers.ts";
import { defaultZone } from "../core/zone.ts";
import { parsePeriod } from "../core/periods.ts";
import { createZone } from "../db/zones.ts";
import { periodBounds, recalculateBill, recordPayment } from "../services/billing/mod.ts";

/** The world of these tests: a tiered zone, one station, two units with metered tenants. */
export interface BillingWorld {
  t: TestApp;
  zoneId: number;
  stationId: number;
  tenants: number[];
  admin: string;
  tenantTokens: string[];
}

/**
 * Zone: 1.00/kWh up to 150, 2.00 up to 280, 3.00 above; base 40, tax 16 %; commission 10 %,
 * fee 25 per unit, customer tax 16 %. Station "Norte" with unit_1 (SIM-A) and unit_2 (SIM-B).
 */
export async function billingWorld(): Promise<BillingWorld> {
  const t = await testApp();
  const admin = await account(t, "admin");
  const tenantA = await account(t, "user", { language: "es" });
  const tenantB = await account(t, "user");
  const zone = await createZone(t.deps.kv, {
    ...defaultZone("Tiered"),
    enable_levels: true,
    price_low: 1,
    price_low_threshold: 150,
    price_middle: 2,
    price_middle_threshold: 280,
    price_high: 3,
    price_high_threshold: 0,
    base_tariff: 40,
    tax_percentage: 16,
    customer_commission: 10,
    customer_fee: 25,
    customer_tax: 16,
  }, Date.now());
  const station = await call(t, "POST", "/api/devices", {
    token: admin.token,
    json: {
      name: "Norte",
      location: JSON.stringify({ city: "Monterrey", state: "Nuevo León", country: "México" }),
      serial_number: "ST-B1",
      station_id: "norte",
      zone_id: zone.id,
      type: "station",
      config: {
        mqtt: { username: "st-b1", password: "station-pass", topic_prefix: "x" },
        station: {
          ssrs: [{ id: "ssr_1", name: "SSR 1", type: "normal", gpio_pin: 0 }],
          units: [
            { id: "unit_1", name: "Depto 1", ssr_id: "ssr_1" },
            { id: "unit_2", name: "Depto 2", ssr_id: "ssr_1" },
          ],
        },
      },
    },
  });
  assert.equal(station.status, 201, await station.clone().text());
  const stationId = (await station.json()).id as number;
  for (const [i, tenant] of [tenantA, tenantB].entries()) {
    const serial = `SIM-${"AB"[i]}`;
    const res = await call(t, "POST", `/api/devices/${stationId}/sensors`, {
      token: admin.token,
      json: {
        name: `Medidor ${i + 1}`,
        serial_number: serial,
        type: "sensor",
        config: {
          mqtt: { username: serial.toLowerCase(), password: "pw-sim-x", topic_prefix: "x" },
          sensor: { unit_id: `unit_${i + 1}`, tenant_id: tenant.user.id, ip_address: "10.0.0.5" },
        },
      },
    });
    assert.equal(res.status, 201, await res.clone().text());
  }
  return {
    t,
    zoneId: zone.id,
    stationId,
    tenants: [tenantA.user.id, tenantB.user.id],
    admin: admin.token,
    tenantTokens: [tenantA.token, tenantB.token],
  };
}

/** Writes counter readings whose delta over `period` is `kwh` (and one reading just before it). */
export async function meter(t: TestApp, serial: string, period: string, kwh: number) {
  const { from, to } = periodBounds(parsePeriod(period), t.deps.config.utcOffsetMinutes);
  const H = 3_600_000;
  t.deps.telemetry.write([
    { serial, ts: from - H, values: { total_energy_kwh: 1000 } },
    { serial, ts: from + H, values: { total_energy_kwh: 1000 } },
    { serial, ts: from + 240 * H, values: { total_energy_kwh: 1000 + kwh / 2 } },
    { serial, ts: to - H, values: { total_energy_kwh: 1000 + kwh } },
  ]);
  await t.deps.telemetry.flush();
}

/** Records a cash payment of a finalized bill as the world's admin would (the bill becomes paid). */
export async function payBill(w: BillingWorld, id: number): Promise<void> {
  const date = new Date(w.t.deps.now()).toISOString().slice(0, 10);
  await recordPayment(w.t.deps, id, { method: "cash", payment_date: date }, {
    email: "admin@test.example",
  });
}

/** Finalizes one bill of a past period on its own, as an admin's recalculation does. */
export async function finalizeOne(w: BillingWorld, id: number, kwh: number): Promise<void> {
  await recalculateBill(w.t.deps, id, "monthly", {
    override_reason: "meter checked on site",
    recalculation_method: "manual_input",
    energy_consumption: String(kwh),
  }, { id: 1, email: "admin@test.example" });
}
