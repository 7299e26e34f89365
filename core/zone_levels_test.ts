import assert from "node:assert/strict";
import {
  addLevel,
  isSeasonal,
  type LevelRow,
  PRICING_MODES,
  removeLevel,
  seasonalCopy,
} from "./zone_levels.ts";

Deno.test("zone level rules: up to 4, first kept, threshold +100, seasonal copies at price 0", () => {
  const one: LevelRow[] = [{
    price: "1",
    threshold: "75",
    summer_price: "1",
    summer_threshold: "75",
    winter_price: "1",
    winter_threshold: "75",
  }];
  let levels = addLevel(one);
  assert.equal(levels[1].threshold, "175");
  assert.equal(levels[1].price, "0");
  levels = addLevel(addLevel(levels));
  assert.equal(levels.length, 4);
  assert.equal(addLevel(levels).length, 4);
  assert.equal(removeLevel(levels, 0).length, 4);
  assert.equal(removeLevel(levels, 2).length, 3);
  const copied = seasonalCopy({
    mode: "seasonal_tiered",
    price_low: "1",
    summer_price_low: "5",
    winter_price_low: "5",
    winter_start_month: "11",
    winter_start_day: "1",
    winter_end_month: "3",
    winter_end_day: "31",
    levels: [{ ...one[0], threshold: "90" }],
  });
  assert.equal(copied.levels[0].summer_price, "0");
  assert.equal(copied.levels[0].winter_threshold, "90");
  assert.equal(copied.summer_price_low, "0");
});

Deno.test("isSeasonal() holds for the two seasonal pricing modes only", () => {
  assert.deepEqual(PRICING_MODES.filter(isSeasonal), ["seasonal", "seasonal_tiered"]);
});
