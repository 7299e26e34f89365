import assert from "node:assert/strict";
import { ruleInputSchema, ruleOf } from "./alert_rules.ts";
import {
  certificateVerdict,
  median,
  nightBounds,
  silenceVerdict,
  usageVerdict,
} from "./alerts_daily.ts";

const DAY = 86_400_000;

Deno.test("baselines: the median of nights with data, gaps left out (not zeros)", () => {
  assert.equal(median([1, null, 3, null, 2]), 2);
  assert.equal(median([1, 2, 3, 10]), 2.5);
  assert.equal(median([null, null]), null);
  const nights = [0.5, null, 0.6, null, null, 0.4, 0.5, null, 0.5, 0.6, null, null, null, 0.5];
  assert.deepEqual(usageVerdict(1.1, nights, 2), { state: "bad", value: 1.1 });
  assert.deepEqual(usageVerdict(0.9, nights, 2), { state: "good", value: 0.9 });
  // Fewer than five earlier nights with data, or no reading tonight: nothing is judged.
  assert.equal(usageVerdict(5, [0.5, null, 0.5, 0.5, null, 0.5], 2), null);
  assert.equal(usageVerdict(null, nights, 2), null);
  // A baseline near zero: tiny consumption is never unusual.
  assert.equal(usageVerdict(0.1, [0, 0, 0, 0, 0, 0], 2)?.state, "good");
});

Deno.test("silence: at the minutes it is bad; a meter never heard from is not silent", () => {
  const r = ruleOf(ruleInputSchema.parse({ template: "no_data", minutes: 30 }), "r", 1, 0);
  assert.equal(silenceVerdict(r, 0, 29 * 60_000).state, "good");
  assert.deepEqual(silenceVerdict(r, 0, 30 * 60_000), { state: "bad", value: 30 });
  assert.equal(silenceVerdict(r, null, 10 * DAY).state, "good");
});

Deno.test("certificate: within 30 or 7 days of its end", () => {
  const r30 = ruleOf(ruleInputSchema.parse({ template: "cert_expiry" }), "r", 1, 0);
  const r7 = ruleOf(ruleInputSchema.parse({ template: "cert_expiry", days: 7 }), "r", 1, 0);
  assert.deepEqual(certificateVerdict(r30, 29 * DAY + 1, 0), { state: "bad", value: 29 });
  assert.equal(certificateVerdict(r30, 30 * DAY, 0).state, "good");
  assert.equal(certificateVerdict(r7, 10 * DAY, 0).state, "good");
  assert.equal(certificateVerdict(r7, 6 * DAY, 0).state, "bad");
});

Deno.test("the night window: across midnight, in the business zone", () => {
  // 22:00–05:00 ending on 2026-03-10 in UTC-6: 04:00Z on the 10th to 11:00Z on the 10th.
  const b = nightBounds("2026-03-10", 22, 5, -360);
  assert.deepEqual([new Date(b.from).toISOString(), new Date(b.to).toISOString()], [
    "2026-03-10T04:00:00.000Z",
    "2026-03-10T11:00:00.000Z",
  ]);
});
