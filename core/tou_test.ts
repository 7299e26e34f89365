import assert from "node:assert/strict";
import { bandAt, bandSchedule, energyByBand, isBandSummer } from "./tou.ts";

const central = bandSchedule("cfe_central")!;
const MX = -360; // Mexico City, UTC-6 all year (no daylight saving time since 2022)
/** The instant of a local time in Mexico City. */
const at = (local: string) => Date.parse(`${local}:00-06:00`);
const band = (local: string) => bandAt(central, at(local), MX);
/** Each local time's band is the one given. */
const expectBands = (bands: Record<string, string>) => {
  for (const [local, expected] of Object.entries(bands)) assert.equal(band(local), expected, local);
};

Deno.test("a winter weekday: base at night, punta from 18 to 22, intermedia around it", () => {
  expectBands({
    "2026-01-14T05:59": "base",
    "2026-01-14T06:00": "intermedia",
    "2026-01-14T17:45": "intermedia",
    "2026-01-14T18:00": "punta",
    "2026-01-14T21:45": "punta",
    "2026-01-14T22:00": "intermedia",
    // Saturday has a short punta, Sunday none.
    "2026-01-17T19:30": "punta",
    "2026-01-17T18:45": "intermedia",
    "2026-01-18T19:30": "intermedia",
    "2026-01-18T17:00": "base",
  });
});

Deno.test("a federal holiday is billed as a Sunday: no punta", () => {
  // 2026-02-02 is the first Monday of February (Constitution Day); the 9th is a plain Monday.
  expectBands({
    "2026-02-02T19:00": "intermedia",
    "2026-02-02T12:00": "base",
    "2026-02-09T19:00": "punta",
    "2026-02-09T12:00": "intermedia",
    // New Year's Day falls on a Thursday in 2026.
    "2026-01-01T20:00": "intermedia",
  });
});

Deno.test("the season changes on the first Sunday of April and the last Sunday of October", () => {
  assert.equal(isBandSummer({ year: 2026, month: 4, day: 4 }), false);
  assert.equal(isBandSummer({ year: 2026, month: 4, day: 5 }), true);
  assert.equal(isBandSummer({ year: 2026, month: 10, day: 24 }), true);
  assert.equal(isBandSummer({ year: 2026, month: 10, day: 25 }), false);
  // Monday 19:00: punta in winter (18–22), intermedia in summer (punta 20–22).
  expectBands({
    "2026-03-30T19:00": "punta",
    "2026-04-06T19:00": "intermedia",
    "2026-04-06T20:30": "punta",
    // Saturday 20:00: summer Saturdays have no punta, winter ones do.
    "2026-10-24T20:00": "intermedia",
    "2026-10-31T20:00": "punta",
  });
});

Deno.test("no daylight saving time: the day of the old April change has every local hour", () => {
  // Until 2022 clocks jumped from 02:00 to 03:00 on the first Sunday of April.
  const day = at("2026-04-05T00:00");
  const hours = Array.from({ length: 24 }, (_, h) => bandAt(central, day + h * 3_600_000, MX));
  assert.deepEqual(hours, [...Array(19).fill("base"), ...Array(5).fill("intermedia")]);
});

Deno.test("15-minute energy is summed per band to the Wh", () => {
  // A winter Wednesday: 96 quarters of 0.1 kWh each, one of them 0.3333 kWh in punta.
  const day = at("2026-01-14T00:00");
  const points = Array.from({ length: 96 }, (_, i) => ({
    ts: day + i * 900_000,
    value: i === 76 ? 0.3333 : 0.1,
  }));
  // base 0–6 (24 quarters), punta 18–22 (16), intermedia the other 56.
  assert.deepEqual(energyByBand(central, points, MX), {
    base: 2.4,
    intermedia: 5.6,
    punta: 1.833,
  });
});

Deno.test("an unknown schedule id is none", () => {
  assert.equal(bandSchedule("nowhere"), null);
  assert.equal(bandSchedule(undefined), null);
  assert.equal(bandSchedule("toString"), null);
});
