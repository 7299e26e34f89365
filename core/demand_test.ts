import assert from "node:assert/strict";
import { capacityDemand, periodDemand } from "./demand.ts";
import { bandSchedule } from "./tou.ts";

const central = bandSchedule("cfe_central")!;
const at = (local: string) => Date.parse(`${local}:00-06:00`);

Deno.test("the peaks are the highest 15-minute averages, overall and in punta, with their time", () => {
  const points = [
    { ts: at("2026-01-14T12:00"), value: 480.25 }, // intermedia
    { ts: at("2026-01-14T19:00"), value: 410 }, // punta
    { ts: at("2026-01-14T19:15"), value: 455.5 }, // punta, the punta peak
    { ts: at("2026-01-18T19:15"), value: 600 }, // Sunday: intermedia, the overall peak
    { ts: at("2026-01-19T19:30"), value: 455.5 }, // an equal punta peak later: the first stays
  ];
  assert.deepEqual(periodDemand(central, points, -360), {
    max: { kw: 600, at: at("2026-01-18T19:15"), local: "2026-01-18 19:15" },
    punta: { kw: 455.5, at: at("2026-01-14T19:15"), local: "2026-01-14 19:15" },
  });
  assert.deepEqual(periodDemand(central, [], -360), {
    max: { kw: 0, at: null, local: null },
    punta: { kw: 0, at: null, local: null },
  });
});

Deno.test("capacity demand: the punta peak, or 70 % of the year's highest when larger", () => {
  assert.equal(capacityDemand(662, 900, 70), 662); // 630 < 662
  assert.equal(capacityDemand(500, 900, 70), 630);
  assert.equal(capacityDemand(500, 900, 0), 500); // floor off
});
