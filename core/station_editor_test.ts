import assert from "node:assert/strict";
import {
  addSsr,
  addUnit,
  type EditorSsr,
  nextGpioPin,
  removeSsr,
  removeUnit,
} from "./station_editor.ts";

Deno.test("station editor rules: GPIO from 0, at most 12 SSRs, SSRs in use stay, units need SSRs", () => {
  const name = (n: number) => `SSR ${n}`;
  let ssrs: EditorSsr[] = [];
  for (let i = 0; i < 12; i++) {
    const res = addSsr(ssrs, name);
    assert.ok(res.ok);
    ssrs = res.rows;
  }
  assert.deepEqual(ssrs.map((s) => s.gpio_pin), [...Array(12).keys()]);
  assert.deepEqual(addSsr(ssrs, name), { ok: false, reason: "maxSsrs" });
  // Pins keep counting up after removals and stop past GPIO19.
  let gaps = [{ id: "ssr_1", name: "a", type: "normal" as const, gpio_pin: 19 }];
  assert.deepEqual(addSsr(gaps, name), { ok: false, reason: "maxGpio" });
  gaps = [{ ...gaps[0], gpio_pin: 18 }];
  const last = addSsr(gaps, name);
  assert.ok(last.ok && last.rows[1].gpio_pin === 19 && last.rows[1].id === "ssr_2");

  assert.deepEqual(addUnit([], [], (n) => `U${n}`), { ok: false, reason: "noSsrs" });
  const unit = addUnit(ssrs, [], (n) => `U${n}`);
  assert.ok(unit.ok);
  assert.deepEqual(unit.rows, [{ id: "unit_1", name: "U1", ssr_id: "ssr_1" }]);
  assert.deepEqual(removeSsr(ssrs, unit.rows, "ssr_1"), { ok: false, reason: "ssrInUse" });
  const removed = removeSsr(ssrs, unit.rows, "ssr_2");
  assert.ok(removed.ok && removed.rows.length === 11);
});

Deno.test("nextGpioPin() is one past the highest pin in use; removeUnit() drops only that unit", () => {
  assert.equal(nextGpioPin([]), 0);
  assert.equal(
    nextGpioPin([
      { id: "ssr_1", name: "a", type: "normal", gpio_pin: 4 },
      { id: "ssr_2", name: "b", type: "emergency", gpio_pin: 2 },
    ]),
    5,
  );
  const units = [
    { id: "unit_1", name: "A", ssr_id: "ssr_1" },
    { id: "unit_2", name: "B", ssr_id: "ssr_1" },
  ];
  assert.deepEqual(removeUnit(units, "unit_1"), [units[1]]);
  assert.deepEqual(removeUnit(units, "unit_9"), units);
});
