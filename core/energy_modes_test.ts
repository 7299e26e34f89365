import assert from "node:assert/strict";
import {
  chartHref,
  ENERGY_MODES,
  periodText,
  seriesCsv,
  seriesUrl,
  shiftDate,
  yieldText,
} from "./energy_modes.ts";

Deno.test("shiftDate() and seriesCsv() move by the mode's step and export the series", () => {
  assert.equal(shiftDate("day", "2026-03-01", -1), "2026-02-28");
  assert.equal(shiftDate("month", "2026-01-31", -1), "2025-12-01");
  assert.equal(shiftDate("year", "2026-05-10", 1), "2027-01-01");
  assert.equal(
    seriesCsv("day", [{ timestamp: 0, label: "00:00", energy: 0.5, power: 2 }]),
    "label,timestamp,energy_kwh,power_kw\n00:00,1970-01-01T00:00:00.000Z,0.50,2.00\n",
  );
});

Deno.test("periodText(), yieldText() and the URLs word a mode's period and series", () => {
  assert.deepEqual(ENERGY_MODES, ["day", "month", "year", "total"]);
  assert.equal(periodText("day", "2026-11-21"), "2026-11-21");
  assert.equal(periodText("month", "2026-11-21"), "2026-11");
  assert.equal(periodText("year", "2026-11-21"), "2026");
  assert.equal(periodText("total", "2026-11-21"), "");
  assert.equal(shiftDate("total", "2026-11-21", 1), "2026-11-21", "total does not move");
  const x = { kwh: "kWh", mwh: "MWh" };
  assert.equal(yieldText(999.994, x), "999.99 kWh");
  assert.equal(yieldText(1234.5, x), "1.234 MWh");
  assert.equal(
    seriesUrl("month", "2026-11-01"),
    "/api/measurements?type=power&mode=month&date=2026-11-01",
  );
  assert.equal(chartHref("year", "2026-01-01"), "/admin?tab=chart&mode=year&date=2026-01-01");
});
