import assert from "node:assert/strict";
import {
  DEFAULT_INTERPRET,
  DEFAULT_TIME_WINDOW,
  frameTime,
  type Interpretation,
  interpretMessage,
  newMeterState,
  splitDeviceTopic,
} from "./shelly.ts";
import { classifyTopic } from "./shelly_topic.ts";
import { believedFields } from "./shelly_state.ts";

const NOW = Date.UTC(2025, 0, 11, 14, 0, 0);

/** Real Pro 3EM em:0 (aioshelly fixture, fw 1.1.0). */
const REAL_EM = {
  a_act_power: 375.5,
  a_aprt_power: 547.4,
  a_current: 2.392,
  a_freq: 50.0,
  a_pf: 0.76,
  a_voltage: 229.0,
  b_act_power: 170.8,
  b_aprt_power: 237.2,
  b_current: 1.037,
  b_freq: 50.0,
  b_pf: 0.78,
  b_voltage: 229.0,
  c_act_power: 12.7,
  c_aprt_power: 97.8,
  c_current: 0.428,
  c_freq: 50.0,
  c_pf: 0.53,
  c_voltage: 229.2,
  id: 0,
  n_current: null,
  total_act_power: 558.965,
  total_aprt_power: 882.413,
  total_current: 3.856,
  user_calibrated_phase: [],
};

/** Real Pro 3EM emdata:0 (same fixture). */
const REAL_EMDATA = {
  a_total_act_energy: 2034616.71,
  a_total_act_ret_energy: 0.0,
  b_total_act_energy: 185686.89,
  b_total_act_ret_energy: 40.7,
  c_total_act_energy: 369469.8,
  c_total_act_ret_energy: 985.91,
  id: 0,
  total_act: 2589773.39,
  total_act_ret: 1026.61,
};

/** Real Pro 3EM on a 120 V site: negative pf with positive power, no freq keys. */
const REAL_120V_EM = {
  id: 0,
  a_current: 3.761,
  a_voltage: 121.7,
  a_act_power: 342.8,
  a_aprt_power: 457.5,
  a_pf: -0.80,
  b_current: 8.109,
  b_voltage: 121.0,
  b_act_power: 957.3,
  b_aprt_power: 980.7,
  b_pf: -0.98,
  c_current: 0.025,
  c_voltage: 121.7,
  c_act_power: 0.2,
  c_aprt_power: 3.1,
  c_pf: -1.00,
  n_current: null,
  total_current: 11.896,
  total_act_power: 1300.252,
  total_aprt_power: 1441.226,
  user_calibrated_phase: [],
};

/** A fresh meter state that has seen {@link REAL_EM} at {@link NOW}. */
function stateAfterRealEm() {
  const state = newMeterState();
  reading(interpretMessage(state, "status/em:0", JSON.stringify(REAL_EM), NOW));
  return state;
}

/** A Pro 3EM's Gen2 notification `method` with `params`, as published on `events/rpc`. */
function pro3emEvent(method: string, params: Record<string, unknown>) {
  const src = "shellypro3em-aabbccddeeff";
  return JSON.stringify({ src, dst: `${src}/events`, method, params });
}

function reading(i: Interpretation) {
  assert.equal(i.type, "reading", `expected a reading, got ${JSON.stringify(i)}`);
  return i as Extract<Interpretation, { type: "reading" }>;
}

function dropped(i: Interpretation) {
  assert.equal(i.type, "dropped", `expected a drop, got ${JSON.stringify(i)}`);
  return i as Extract<Interpretation, { type: "dropped" }>;
}

Deno.test("splitDeviceTopic() splits sensor and station prefixes and refuses the rest", () => {
  assert.deepEqual(splitDeviceTopic("sensor/shellypro3em-aabb/online"), {
    prefix: "sensor/shellypro3em-aabb",
    rest: "online",
  });
  assert.deepEqual(splitDeviceTopic("station/ST-01/status/em:0"), {
    prefix: "station/ST-01",
    rest: "status/em:0",
  });
  assert.deepEqual(splitDeviceTopic("sensor/x/events/rpc"), {
    prefix: "sensor/x",
    rest: "events/rpc",
  });
  for (const bad of ["other/x/online", "sensor//online", "sensor/x", "sensor/x/", "/x/online"]) {
    assert.equal(splitDeviceTopic(bad), null, bad);
  }
});

Deno.test("classifyTopic() knows online, status components, events/rpc and unused topics", () => {
  assert.deepEqual(classifyTopic("online"), { kind: "online" });
  assert.deepEqual(classifyTopic("status/em:0"), { kind: "status", component: "em:0" });
  assert.deepEqual(classifyTopic("status/emdata:0"), { kind: "status", component: "emdata:0" });
  assert.deepEqual(classifyTopic("events/rpc"), { kind: "events_rpc" });
  for (const unused of ["rpc", "command", "command/switch:0", "debug/log", "status"]) {
    assert.deepEqual(classifyTopic(unused), { kind: "unused" }, unused);
  }
  for (const other of ["status/", "status/em:0/x", "foo", "online/x", "events/rpc/x"]) {
    assert.deepEqual(classifyTopic(other), { kind: "other" }, other);
  }
});

Deno.test("a real status/em:0 maps to power, apparent power, current, voltage and pf", () => {
  const r = reading(
    interpretMessage(newMeterState(), "status/em:0", JSON.stringify(REAL_EM), NOW),
  );
  assert.equal(r.ts, NOW, "status objects carry no time: arrival time");
  assert.equal(r.invalidFields, 0);
  assert.deepEqual(r.values, {
    phase_a_power: 375.5,
    phase_a_apparent_power: 547.4,
    phase_a_current: 2.392,
    phase_a_voltage: 229.0,
    phase_a_pf: 0.76,
    phase_b_power: 170.8,
    phase_b_apparent_power: 237.2,
    phase_b_current: 1.037,
    phase_b_voltage: 229.0,
    phase_b_pf: 0.78,
    phase_c_power: 12.7,
    phase_c_apparent_power: 97.8,
    phase_c_current: 0.428,
    phase_c_voltage: 229.2,
    phase_c_pf: 0.53,
    total_power: 558.965,
    total_apparent_power: 882.413,
    total_current: 3.856,
    total_pf: 0.633,
  });
});

Deno.test("a real status/emdata:0 maps Wh counters to kWh", () => {
  const r = reading(
    interpretMessage(newMeterState(), "status/emdata:0", JSON.stringify(REAL_EMDATA), NOW),
  );
  const v = r.values;
  assert.equal(v.total_energy_kwh, 2589.77339);
  assert.equal(v.total_returned_kwh, 1.02661);
  assert.equal(v.phase_a_energy_kwh, 2034.61671);
  assert.equal(v.phase_a_returned_kwh, 0);
  assert.equal(v.phase_b_returned_kwh, 0.0407);
  assert.equal(v.phase_c_energy_kwh, 369.4698);
  assert.equal(v.total_power, undefined, "emdata carries no power");
  assert.equal(Object.keys(v).length, 8);
});

Deno.test("negative pf with positive power is kept as sent (120 V real capture)", () => {
  const v = reading(
    interpretMessage(newMeterState(), "status/em:0", JSON.stringify(REAL_120V_EM), NOW),
  ).values;
  assert.equal(v.phase_a_pf, -0.8);
  assert.equal(v.phase_b_pf, -0.98);
  assert.equal(v.phase_c_pf, -1);
  assert.equal(v.phase_a_power, 342.8);
  assert.equal(v.total_power, 1300.252);
  assert.equal(v.total_pf, 0.902, "total pf is total active over total apparent power");
});

Deno.test("the official EM example: the doc typo c_active_power is not a known field", () => {
  const official = {
    id: 0,
    a_current: 4.029,
    a_voltage: 236.1,
    a_act_power: 951.2,
    a_aprt_power: 951.9,
    a_pf: 1,
    a_freq: 50,
    b_current: 4.027,
    b_voltage: 236.201,
    b_act_power: -951.1,
    b_aprt_power: 951.8,
    b_pf: 1,
    b_freq: 50,
    c_current: 3.03,
    c_voltage: 236.402,
    c_active_power: 715.4,
    c_aprt_power: 716.2,
    c_pf: 1,
    c_freq: 50,
    n_current: 11.029,
    total_current: 11.083,
    total_act_power: 2484.782,
    total_aprt_power: 2486.7,
    user_calibrated_phase: [],
    errors: ["phase_sequence"],
  };
  const r = reading(
    interpretMessage(newMeterState(), "status/em:0", JSON.stringify(official), NOW),
  );
  assert.equal(r.values.phase_c_power, undefined);
  assert.equal(r.values.phase_c_apparent_power, 716.2);
  assert.equal(r.values.phase_b_power, -951.1, "export is negative power");
  assert.equal(r.invalidFields, 0);
});

Deno.test("NotifyStatus partial frames overlay the last known state and carry their own time", () => {
  const state = stateAfterRealEm();
  const frame = pro3emEvent("NotifyStatus", {
    ts: 1736604018.38,
    "em:0": { id: 0, a_current: 3.5, a_act_power: 700.1 },
  });
  const r = reading(interpretMessage(state, "events/rpc", frame, 1736604020_000));
  assert.equal(r.ts, 1736604018380);
  assert.equal(r.values.phase_a_current, 3.5);
  assert.equal(r.values.phase_a_power, 700.1);
  assert.equal(r.values.phase_a_voltage, 229.0, "unchanged keys come from the known state");
  assert.equal(r.values.phase_c_pf, 0.53);
  assert.equal(r.values.total_power, 558.965);
});

Deno.test("a NotifyStatus frame before any full status gives only its own keys", () => {
  // Real EM Gen3 frame: only changed keys, negative power (export).
  const frame =
    '{"src":"shellyemg3-dcb4d9c564f4","dst":"shellyemg3/events","method":"NotifyStatus","params":{"ts":1788820998.37,"em1:0":{"id":0,"current":16.714,"act_power":-1899.8,"voltage":117.6}}}';
  const r = reading(interpretMessage(newMeterState(), "events/rpc", frame, 1788821000_000));
  assert.deepEqual(r.values, {
    phase_a_power: -1899.8,
    phase_a_current: 16.714,
    phase_a_voltage: 117.6,
  }, "no totals from one phase of three");
  assert.equal(r.ts, 1788820998370);
});

Deno.test("NotifyFullStatus replaces the state of the components it carries", () => {
  const state = stateAfterRealEm();
  const full = pro3emEvent("NotifyFullStatus", {
    ts: NOW / 1000,
    ble: {},
    cloud: { connected: true },
    "em:0": { id: 0, a_voltage: 231.5, a_current: 1.0 },
    "emdata:0": REAL_EMDATA,
    sys: { mac: "AABBCCDDEEFF", unixtime: NOW / 1000 },
  });
  const r = reading(interpretMessage(state, "events/rpc", full, NOW + 500));
  assert.equal(r.ts, NOW);
  assert.equal(r.values.phase_a_voltage, 231.5);
  assert.equal(r.values.phase_b_voltage, undefined, "replaced, not overlaid");
  assert.equal(r.values.total_power, undefined);
  assert.equal(r.values.total_energy_kwh, 2589.77339, "both components in one reading");
});

Deno.test("null clears a field: the meter does not know it any more", () => {
  const state = stateAfterRealEm();
  const frame = { method: "NotifyStatus", params: { ts: NOW / 1000, "em:0": { a_voltage: null } } };
  const r = reading(interpretMessage(state, "events/rpc", JSON.stringify(frame), NOW));
  assert.equal(r.values.phase_a_voltage, undefined);
  assert.equal(r.values.phase_b_voltage, 229.0);
});

Deno.test("malformed JSON is dropped and leaves the state alone", () => {
  const state = stateAfterRealEm();
  for (const [rest, payload] of [["status/em:0", '{"a_voltage":'], ["events/rpc", "not json"]]) {
    const d = dropped(interpretMessage(state, rest, payload, NOW));
    assert.equal(d.reason, "malformed_json");
  }
  assert.equal(believedFields(state)["em:0"]?.a_voltage, 229.0);
});

Deno.test("wrong types are dropped; a frame with some good fields keeps them and counts the bad", () => {
  const state = newMeterState();
  for (const payload of ["[1,2]", '"abc"', "42", "null", "true"]) {
    assert.equal(
      dropped(interpretMessage(state, "status/em:0", payload, NOW)).reason,
      "wrong_type",
      payload,
    );
  }
  assert.equal(
    dropped(interpretMessage(state, "status/em:0", '{"a_voltage":"230","a_current":true}', NOW))
      .reason,
    "wrong_type",
  );
  assert.equal(Object.keys(believedFields(state)).length, 0, "nothing was believed");
  reading(interpretMessage(state, "status/em:0", JSON.stringify(REAL_EM), NOW));
  const frame = {
    method: "NotifyStatus",
    params: { ts: NOW / 1000, "em:0": { a_voltage: "oops", a_current: 5.5, b_pf: 7 } },
  };
  const r = reading(interpretMessage(state, "events/rpc", JSON.stringify(frame), NOW));
  assert.equal(r.invalidFields, 2);
  assert.equal(r.values.phase_a_current, 5.5);
  assert.equal(r.values.phase_a_voltage, 229.0, "the bad field keeps the known value");
  assert.equal(r.values.phase_b_pf, 0.78);
  for (
    const bad of [
      '{"method":"NotifyStatus","params":[1]}',
      '{"method":"NotifyStatus"}',
      '{"method":"NotifyStatus","params":{"em:0":"x"}}',
      "[]",
    ]
  ) {
    assert.equal(
      dropped(interpretMessage(state, "events/rpc", bad, NOW)).reason,
      "wrong_type",
      bad,
    );
  }
});

Deno.test("readings out of range are not believed; pf slightly past ±1 is clamped", () => {
  const state = newMeterState();
  const r = reading(
    interpretMessage(
      state,
      "status/em:0",
      '{"a_voltage":5000,"b_voltage":-3,"a_current":-1,"a_pf":1.02,"b_pf":-1.5,"c_pf":-1.04,"total_act_power":1e999}',
      NOW,
    ),
  );
  assert.equal(r.invalidFields, 5);
  assert.deepEqual(r.values, { phase_a_pf: 1, phase_c_pf: -1 });
  const e = interpretMessage(state, "status/emdata:0", '{"total_act":-5,"total_act_ret":"1"}', NOW);
  assert.equal(dropped(e).reason, "wrong_type");
});

Deno.test("online accepts true and false only", () => {
  const state = newMeterState();
  assert.deepEqual(interpretMessage(state, "online", "true", NOW), {
    type: "online",
    online: true,
  });
  assert.deepEqual(interpretMessage(state, "online", " false\n", NOW), {
    type: "online",
    online: false,
  });
  assert.equal(dropped(interpretMessage(state, "online", "1", NOW)).reason, "wrong_type");
  assert.equal(dropped(interpretMessage(state, "online", '"true"', NOW)).reason, "wrong_type");
  assert.equal(interpretMessage(state, "online", "", NOW).type, "ignored", "retained clear");
});

Deno.test("unknown topics are dropped; known topics without readings are ignored", () => {
  const state = newMeterState();
  assert.equal(dropped(interpretMessage(state, "foo/bar", "{}", NOW)).reason, "unknown_topic");
  assert.equal(interpretMessage(state, "rpc", '{"id":1}', NOW).type, "ignored");
  assert.equal(interpretMessage(state, "status/sys", '{"mac":"x"}', NOW).type, "ignored");
  assert.equal(interpretMessage(state, "status/em:1", '{"a_voltage":1}', NOW).type, "ignored");
  assert.equal(
    interpretMessage(
      state,
      "events/rpc",
      '{"method":"NotifyEvent","params":{"ts":1,"events":[{"component":"emdata:0","event":"data"}]}}',
      NOW,
    ).type,
    "ignored",
  );
  const onlyInput =
    '{"src":"shellyplusi4-c4d8d554ad6c","dst":"shellyplusi4-c4d8d554ad6c/events","method":"NotifyStatus","params":{"ts":1733776884.28,"input:3":{"id":3,"state":true}}}';
  assert.equal(interpretMessage(state, "events/rpc", onlyInput, NOW).type, "ignored");
  assert.equal(interpretMessage(state, "status/em:0", '{"id":0,"a_freq":50}', NOW).type, "ignored");
  assert.equal(interpretMessage(state, "status/em:0", '{"a_voltage":null}', NOW).type, "ignored");
  assert.deepEqual(
    Object.values(believedFields(state)).flatMap((c) => Object.values(c)),
    [],
    "no value believed",
  );
});

Deno.test("a JSON __proto__ key pollutes nothing", () => {
  const state = newMeterState();
  const i = interpretMessage(state, "status/em:0", '{"__proto__":{"a_voltage":1}}', NOW);
  assert.equal(i.type, "ignored");
  assert.equal(({} as Record<string, unknown>).a_voltage, undefined);
});

Deno.test("without overlay a NotifyStatus reading carries only the frame's own values", () => {
  const state = stateAfterRealEm();
  const frame = { method: "NotifyStatus", params: { ts: NOW / 1000, "em:0": { a_current: 3 } } };
  const options = { ...DEFAULT_INTERPRET, overlayPartialFrames: false };
  const r = reading(interpretMessage(state, "events/rpc", JSON.stringify(frame), NOW, options));
  assert.deepEqual(r.values, { phase_a_current: 3 });
  assert.equal(believedFields(state)["em:0"]?.a_current, 3, "the state still follows");
  assert.equal(believedFields(state)["em:0"]?.a_voltage, 229.0);
});

Deno.test("readings without a time of their own take the caller's untimed time", () => {
  const state = newMeterState();
  const late = NOW - 4_000;
  const s = reading(
    interpretMessage(state, "status/em:0", JSON.stringify(REAL_EM), NOW, DEFAULT_INTERPRET, late),
  );
  assert.equal(s.ts, late);
  assert.equal(s.timed, false);
  const noTs = { method: "NotifyStatus", params: { "em:0": { a_current: 1 } } };
  const f = reading(
    interpretMessage(state, "events/rpc", JSON.stringify(noTs), NOW, DEFAULT_INTERPRET, late),
  );
  assert.deepEqual([f.ts, f.timed], [late, false]);
  const timed = {
    method: "NotifyStatus",
    params: { ts: NOW / 1000 - 9, "em:0": { a_current: 2 } },
  };
  const g = reading(
    interpretMessage(state, "events/rpc", JSON.stringify(timed), NOW, DEFAULT_INTERPRET, late),
  );
  assert.deepEqual([g.ts, g.timed], [NOW - 9_000, true]);
});

Deno.test("frameTime() uses params.ts when sane and the arrival time otherwise", () => {
  const w = DEFAULT_TIME_WINDOW;
  assert.equal(frameTime(NOW / 1000 - 3.5, NOW, w), NOW - 3500);
  assert.equal(frameTime(undefined, NOW, w), NOW);
  assert.equal(frameTime("1736604018", NOW, w), NOW);
  assert.equal(frameTime(NOW / 1000 + 3600, NOW, w), NOW, "an hour ahead: clock wrong");
  assert.equal(frameTime(NOW / 1000 - 8 * 86400, NOW, w), NOW, "8 days old");
  assert.equal(frameTime(0, NOW, w), NOW, "unset clock (1970)");
  assert.equal(frameTime(NOW / 1000 - 6 * 86400, NOW, w), NOW - 6 * 86_400_000, "backlog");
});

Deno.test("the monophase profile maps em1:0..2 to phases a..c with summed totals", () => {
  const state = newMeterState();
  const em1 = (id: number, v: number, i: number, p: number, s: number) =>
    interpretMessage(
      state,
      `status/em1:${id}`,
      JSON.stringify({ id, current: i, voltage: v, act_power: p, aprt_power: s, pf: p / s }),
      NOW,
    );
  em1(0, 230, 1, 200, 230);
  em1(1, 231, 2, 400, 462);
  const r = reading(em1(2, 229, 0.5, -100, 114.5));
  assert.equal(r.values.phase_c_power, -100);
  assert.equal(r.values.phase_b_voltage, 231);
  assert.equal(r.values.total_power, 500);
  assert.equal(r.values.total_current, 3.5);
  assert.equal(r.values.total_apparent_power, 806.5);
  assert.equal(r.values.total_pf, 0.62);
  interpretMessage(state, "status/em1data:0", '{"id":0,"total_act_energy":6644.90}', NOW);
  const partial = reading(
    interpretMessage(state, "status/em1data:2", '{"id":2,"total_act_energy":0.5}', NOW),
  );
  assert.equal(partial.values.total_energy_kwh, undefined, "phase b still unknown");
  const d = reading(
    interpretMessage(
      state,
      "status/em1data:1",
      '{"id":1,"total_act_energy":1000,"total_act_ret_energy":2595.26}',
      NOW,
    ),
  );
  assert.equal(d.values.phase_a_energy_kwh, 6.6449);
  assert.equal(d.values.phase_b_returned_kwh, 2.59526);
  assert.equal(d.values.total_energy_kwh, 7.6454);
  assert.equal(
    d.values.total_returned_kwh,
    undefined,
    "phases a and c never said their returned energy",
  );
});
