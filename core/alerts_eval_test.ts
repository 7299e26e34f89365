import assert from "node:assert/strict";
import { type AlertTemplate, type RuleInput, ruleInputSchema, ruleOf } from "./alert_rules.ts";
import { judge, MAX_GAP_MS, newWatch, type ReadingValues, step } from "./alerts_eval.ts";

const MIN = 60_000;
const rule = (template: AlertTemplate, extra: Partial<RuleInput> = {}) =>
  ruleOf(ruleInputSchema.parse({ template, ...extra }), "r1", 1, 0);

/** Runs a series of readings (minute → values) through a fresh watch; the transitions. */
function run(r: ReturnType<typeof rule>, series: [number, ReadingValues][]) {
  const w = newWatch();
  return series.flatMap(([m, v]) => {
    const t = step(w, judge(r, v), m * MIN, r.params.minutes);
    return t ? [`${t.kind}@${m}:${t.value ?? ""}`] : [];
  });
}
const volts = (a: number, b = 127, c = 127): ReadingValues => ({
  phase_a_voltage: a,
  phase_b_voltage: b,
  phase_c_voltage: c,
});
const watts = (w: number, pf?: number): ReadingValues =>
  pf === undefined ? { total_power: w } : { total_power: w, total_pf: pf };

const cases: {
  name: string;
  r: ReturnType<typeof rule>;
  series: [number, ReadingValues][];
  want: string[];
}[] = [
  {
    name: "voltage: 127 V ±10 % band edges; opens after the minutes, worst phase named",
    r: rule("voltage_band", { minutes: 2 }),
    series: [[0, volts(114.3)], [1, volts(114.2)], [2, volts(113)], [3, volts(112, 127, 150)], [
      4,
      volts(120),
    ]],
    want: ["open@3:150"],
  },
  {
    name: "voltage: flapping around the edge keeps one alert; clears only inside the clear band",
    r: rule("voltage_band", { minutes: 2 }),
    series: [
      [0, volts(110)],
      [1, volts(110)],
      [2, volts(110)], // open at 2
      [3, volts(115)],
      [4, volts(110)],
      [5, volts(116)],
      [6, volts(113)], // flaps: hold/bad
      [7, volts(116)],
      [8, volts(116)],
      [9, volts(116)],
      [10, volts(116)], // 116 < 114.3+2.54: hold
      [11, volts(125)],
      [12, volts(125)],
      [13, volts(125)],
    ],
    want: ["open@2:110", "clear@13:"],
  },
  {
    name: "voltage: 230 V station band",
    r: rule("voltage_band", { nominal_v: 230, minutes: 1 }),
    series: [[0, volts(230, 230, 230)], [1, volts(230, 230, 230)], [2, volts(200, 230, 230)], [
      3,
      volts(200, 230, 230),
    ]],
    want: ["open@3:200"],
  },
  {
    name: "phase lost: one phase at 0 while the others carry; all off is no phase loss",
    r: rule("phase_lost", { minutes: 1 }),
    series: [[0, volts(0, 0, 0)], [1, volts(0, 0, 0)], [2, volts(0)], [3, volts(0)], [
      4,
      volts(127),
    ], [5, volts(127)]],
    want: ["open@3:0", "clear@5:"],
  },
  {
    name: "reversed clamp: negative power beyond the tolerance, per phase too",
    r: rule("reverse_power", { tolerance_w: 50, minutes: 5 }),
    series: [[0, watts(-40)], [5, watts(-45)], [6, { total_power: 10, phase_b_power: -300 }], [
      11,
      watts(-60),
    ]],
    want: ["open@11:-60"],
  },
  {
    name: "power factor: a light load is not judged; a low pf for the minutes opens",
    r: rule("low_pf", { pf: 0.8, minutes: 15 }),
    series: [
      [0, watts(50, 0.3)],
      [5, watts(500, 0.5)],
      [10, watts(40, 0.5)],
      [15, watts(500, 0.5)],
      [20, watts(500, 0.6)],
    ],
    want: ["open@20:0.6"],
  },
  {
    name: "power above the limit: a dip breaks the run; a data gap breaks it too",
    r: rule("high_power", { kw: 5, minutes: 15 }),
    series: [
      [0, watts(6000)],
      [10, watts(4000)],
      [14, watts(6000)],
      [28, watts(6000)], // dip at 10
      [28 + MAX_GAP_MS / MIN + 1, watts(6000)], // a gap: the run starts again
      [28 + MAX_GAP_MS / MIN + 2, watts(6000)],
      [30 + MAX_GAP_MS / MIN, watts(6000)],
    ],
    want: [],
  },
  {
    name: "power above the limit for the minutes opens once; hysteresis at 95 %",
    r: rule("high_power", { kw: 5, minutes: 15 }),
    series: [
      [0, watts(6000)],
      [5, watts(6000)],
      [10, watts(5100)],
      [15, watts(5500)],
      [16, watts(4900)],
      [20, watts(4900)],
      [25, watts(4000)],
      [30, watts(4000)],
      [35, watts(4800)],
      [40, watts(4000)],
    ],
    want: ["open@15:5500", "clear@40:4000"],
  },
];

for (const c of cases) {
  Deno.test(`reading rule ${c.name}`, () => assert.deepEqual(run(c.r, c.series), c.want));
}

Deno.test("a reading older than the last one is ignored; a reading without the values says nothing", () => {
  const r = rule("high_power", { kw: 1, minutes: 1 });
  const w = newWatch();
  assert.equal(step(w, judge(r, watts(2000)), 10 * MIN, 1), null);
  assert.equal(step(w, judge(r, watts(2000)), 5 * MIN, 1), null);
  assert.equal(judge(r, { total_pf: 1 }), null);
  assert.equal(step(w, judge(r, watts(2000)), 11 * MIN, 1)?.kind, "open");
});

Deno.test("a rule body: scope needs an id, defaults per template, a bad nominal voltage refused", () => {
  assert.equal(ruleInputSchema.safeParse({ template: "no_data", scope: "zone" }).success, false);
  assert.equal(
    ruleInputSchema.safeParse({ template: "voltage_band", nominal_v: 200 }).success,
    false,
  );
  const r = rule("no_data", { scope: "meter", scope_id: "abc1" });
  assert.deepEqual([r.scope, r.params.minutes], [{ kind: "meter", serial: "ABC1" }, 30]);
});
