/**
 * Reading a payload from its bytes (`interpretBytes`, through `shelly_scan.ts` when it can)
 * answers exactly what reading its text does (`interpretMessage`, `JSON.parse`): the same
 * interpretation and the same meter state afterwards, for the simulator's messages, for every
 * truncation and many corruptions of real frames, for numbers in every JSON spelling, and for
 * the payloads the scan leaves to the text (escapes, duplicate keys, non-ASCII, deep nesting).
 */
import assert from "node:assert/strict";
import {
  DEFAULT_INTERPRET,
  interpretBytes,
  interpretMessage,
  type InterpretOptions,
  newMeterState,
} from "./shelly.ts";
import { believedFields, type MeterState } from "./shelly_state.ts";
import { scanPayload } from "./shelly_scan.ts";
import { componentRef } from "./shelly_fields.ts";
import { createMeter, notifyFullStatus, notifyStatus, stepMeter, tickMessages } from "./sim.ts";

const NOW = Date.UTC(2026, 0, 11, 14, 0, 0);
const enc = new TextEncoder();

/** Both readings from copies of `prime`'s state; asserts they agree, answers the interpretation. */
function same(
  rest: string,
  payload: string | Uint8Array,
  options: InterpretOptions = DEFAULT_INTERPRET,
  prime: (s: MeterState) => void = () => {},
) {
  const bytes = typeof payload === "string" ? enc.encode(payload) : payload;
  const text = new TextDecoder().decode(bytes);
  const a = newMeterState();
  const b = newMeterState();
  prime(a);
  prime(b);
  const fromText = interpretMessage(a, rest, text, NOW, options, NOW - 7);
  const fromBytes = interpretBytes(b, rest, bytes, NOW, options, NOW - 7);
  assert.deepStrictEqual(fromBytes, fromText, `${rest} ${text.slice(0, 300)}`);
  assert.deepStrictEqual(believedFields(b), believedFields(a), `state after ${text.slice(0, 300)}`);
  return fromBytes;
}

/** A meter's state after a full status (what partial frames overlay). */
const primed = (s: MeterState) => {
  const m = createMeter("SIM0001", { t: NOW - 1000 });
  interpretMessage(s, "events/rpc", notifyFullStatus(m), NOW);
};

Deno.test("the simulator's messages read the same from bytes as from text, state and all", () => {
  const meters = Array.from({ length: 20 }, (_, i) => createMeter(`SIM${i}`, { t: NOW - 60_000 }));
  for (
    const options of [DEFAULT_INTERPRET, { ...DEFAULT_INTERPRET, overlayPartialFrames: false }]
  ) {
    const text = meters.map(() => newMeterState());
    const bytes = meters.map(() => newMeterState());
    for (let tick = 0; tick < 30; tick++) {
      meters.forEach((m, i) => {
        stepMeter(m, NOW - 60_000 + tick * 1000);
        for (const msg of tickMessages(m, { tick })) {
          const rest = msg.topic.slice(m.prefix.length + 1);
          const t = interpretMessage(text[i], rest, msg.payload, NOW, options);
          const b = interpretBytes(bytes[i], rest, enc.encode(msg.payload), NOW, options);
          assert.deepStrictEqual(b, t);
        }
      });
    }
    meters.forEach((_, i) =>
      assert.deepStrictEqual(believedFields(bytes[i]), believedFields(text[i]))
    );
  }
});

Deno.test("the scan reads the common frames itself (the fast path is taken)", () => {
  const m = createMeter("SIM0001", { t: NOW });
  assert.ok(scanPayload(enc.encode(notifyFullStatus(m)), null));
  assert.ok(scanPayload(enc.encode(notifyStatus(m, true)), null));
  assert.ok(scanPayload(enc.encode('{"id":0,"a_voltage":229.5}'), componentRef("em:0")));
  assert.equal(scanPayload(enc.encode('{"a_voltage":"1"}'), componentRef("em:0")), null);
  assert.equal(scanPayload(enc.encode('{"method":"NotifyEvent","params":{}}'), null), null);
});

Deno.test("every truncation and corruption of a real frame reads the same from bytes", () => {
  const m = createMeter("SIM0001", { t: NOW });
  stepMeter(m, NOW + 1000);
  const frames = [notifyFullStatus(m), notifyStatus(m, true), notifyStatus(m, false)];
  const corruptions = ['"', "\\", ",", "}", "{", "]", "0", "-", " ", "e", ".", ":", "n", "\u0001"];
  for (const frame of frames) {
    const bytes = enc.encode(frame);
    for (let n = 0; n <= bytes.length; n++) {
      same("events/rpc", bytes.subarray(0, n), DEFAULT_INTERPRET, primed);
    }
    for (let i = 0; i < bytes.length; i += 3) {
      for (const c of [...corruptions.map((x) => x.charCodeAt(0)), 0x80, 0xff]) {
        const copy = bytes.slice();
        copy[i] = c;
        same("events/rpc", copy, DEFAULT_INTERPRET, primed);
      }
    }
  }
  const em = '{"id":0,"a_current":4.58,"a_voltage":126.6,"a_pf":0.97,"n_current":null}';
  for (let n = 0; n <= em.length; n++) same("status/em:0", em.slice(0, n));
});

Deno.test("numbers in every JSON spelling read the same from bytes", () => {
  const spellings = [
    "0",
    "-0",
    "-0.0",
    "7",
    "229.5",
    "1e2",
    "1E2",
    "1e+2",
    "1e-2",
    "12.5e-1",
    "123.456e2",
    "0.1",
    "0.30000000000000004",
    "2004701.44",
    "1795862703.02",
    "1736604020.123456",
    "9007199254740992",
    "9007199254740993",
    "123456789012345678901234567890",
    "1e22",
    "1e23",
    "1e-22",
    "1e-23",
    "1.7976931348623157e308",
    "1e400",
    "5e-324",
    "1e-400",
    "00",
    "01",
    "1.",
    ".5",
    "+1",
    "1e",
    "1e+",
    "-",
    "--1",
    "NaN",
    "Infinity",
    "-Infinity",
    "0x10",
    "1_000",
    "true",
    "null",
    '"5"',
    "[]",
    "{}",
    "1.5.5",
    "1e5e5",
  ];
  const ts = (NOW / 1000).toFixed(2);
  for (const v of spellings) {
    same("status/em:0", `{"a_voltage":${v},"a_current":1}`);
    same("status/emdata:0", `{"total_act":${v}}`);
    same(
      "events/rpc",
      `{"method":"NotifyStatus","params":{"ts":${v},"em:0":{"a_pf":${v}}}}`,
      DEFAULT_INTERPRET,
      primed,
    );
    same(
      "events/rpc",
      `{"method":"NotifyStatus","params":{"ts":${ts},"em:0":{"a_act_power":-${v}}}}`,
    );
  }
});

Deno.test("payloads the scan leaves to JSON.parse read the same as before", () => {
  const ts = (NOW / 1000).toFixed(2);
  const payloads = [
    `{"method":"NotifyStatus","params":{"ts":${ts},"em:0":{"a_voltage":230,"a_voltage":231}}}`,
    `{"method":"NotifyStatus","params":{"ts":${ts},"em:0":{"a_voltage":230},"em:0":{"a_current":2}}}`,
    `{"method":"NotifyStatus","method":"NotifyFullStatus","params":{"em:0":{"a_voltage":230}}}`,
    `{"method":"NotifyStatus","params":{"ts":1,"ts":${ts},"em:0":{"a_voltage":230}}}`,
    `{"method":"NotifyStatus","params":{"em:0":{"a_voltage":230}},"params":{"em:0":{"a_current":1}}}`,
    `{"method":"NotifyStatus","params":{"ts":${ts},"em:0":{"a\\u005fvoltage":230}}}`,
    `{"method":"Notify\\u0053tatus","params":{"ts":${ts},"em:0":{"a_voltage":230}}}`,
    `{"src":"caf\u00e9","method":"NotifyStatus","params":{"ts":${ts},"em:0":{"a_voltage":230}}}`,
    `\ufeff{"method":"NotifyStatus","params":{"ts":${ts},"em:0":{"a_voltage":230}}}`,
    ` \n\t{ "method" : "NotifyStatus" , "params" : { "ts" : ${ts} , "em:0" : { "a_voltage" : 230 } } } \r\n`,
    `{"method":"NotifyStatus","params":{"ts":"${ts}","em:0":{"a_voltage":230}}}`,
    `{"method":"NotifyStatus","params":{"ts":null,"em:0":{"a_voltage":230,"a_current":"2"}}}`,
    `{"method":"NotifyStatus","params":{"em:0":{"a_voltage":true,"a_current":[1],"a_pf":{}}}}`,
    `{"method":"NotifyStatus","params":{"em:0":5,"emdata:0":{"total_act":1}}}`,
    `{"method":"NotifyStatus","params":{"em:0":{"a_voltage":99999}}}`,
    `{"method":"NotifyStatus","params":{"em:0":{"a_voltage":null,"a_current":null}}}`,
    `{"method":"NotifyStatus","params":{"sys":{"x":[1,{"y":[true,false,null,"z"]}]}}}`,
    `{"method":"NotifyStatus","params":{"input:0":{"id":0,"state":true}}}`,
    `{"method":"NotifyStatus"}`,
    `{"params":{"em:0":{"a_voltage":230}}}`,
    `{"method":"NotifyStatus","params":[]}`,
    `{"method":"NotifyEvent","params":{"em:0":{"a_voltage":230}}}`,
    `{"method":5,"params":{"em:0":{"a_voltage":230}}}`,
    `{"method":"NotifyStatus","params":{"em:0":{"a_voltage":230}}}x`,
    `{"method":"NotifyStatus","params":{"em:0":{"a_voltage":230}}}{}`,
    `{"method":"NotifyStatus","params":{"em:0":{"a_voltage":230},}}`,
    `{"method":"NotifyStatus","params":{"em:0":{"a_voltage":230}}`,
    `{"method":"NotifyStatus","params":{"em1:1":{"voltage":120,"act_power":5}}}`,
    `{"method":"NotifyFullStatus","params":{"ts":${ts},"em1data:0":{"total_act_energy":6644.9}}}`,
    `{"method":"NotifyStatus","params":{"x":${"[".repeat(100)}${
      "]".repeat(100)
    },"em:0":{"a_voltage":1}}}`,
    `{"method":"NotifyStatus","params":{"x":${"[".repeat(20)}${
      "]".repeat(20)
    },"em:0":{"a_voltage":1}}}`,
    `{"__proto__":{"method":"NotifyStatus"},"method":"NotifyStatus","params":{"em:0":{"a_voltage":1}}}`,
    `[]`,
    `null`,
    ``,
    `   `,
  ];
  for (
    const options of [DEFAULT_INTERPRET, { ...DEFAULT_INTERPRET, overlayPartialFrames: false }]
  ) {
    for (const payload of payloads) {
      same("events/rpc", payload, options);
      same("events/rpc", payload, options, primed);
    }
  }
  for (
    const status of ['{"a_voltage":1,"a_voltage":2}', '{"a\\u005fvoltage":1}', "[]", "5", "", "{}"]
  ) {
    same("status/em:0", status, DEFAULT_INTERPRET, primed);
  }
  same("status/sys", '{"mac":"x"}');
  same("online", "false");
  same("status/em:0", enc.encode('{"a_voltage":230}').subarray(0, 0));
});
