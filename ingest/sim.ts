/**
 * A model of a Shelly Pro 3EM meter (pure, deterministic for a given seed): three phases
 * following a daily load curve (night base, morning and evening peaks), some meters with
 * rooftop solar that exports at midday, noise, voltage around the nominal value, and
 * perpetual energy counters in Wh that only grow. It produces the meter's real message
 * shapes: `status/em:0`, `status/emdata:0`, NotifyStatus partial frames and
 * NotifyFullStatus on `events/rpc`. Used by `scripts/simulate.ts`, tests and benchmarks.
 */
import { sensorTopicPrefix } from "../core/devices.ts";

const PHASES = ["a", "b", "c"] as const;

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed from a string (FNV-1a). */
function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The share of peak load at an hour of local time (0..24): a night base, a morning peak
 * around 8 h, a midday plateau and the evening peak around 20 h. Between 0.15 and 1.
 */
export function dailyLoad(hour: number): number {
  const g = (mu: number, sigma: number) => Math.exp(-((hour - mu) ** 2) / (2 * sigma * sigma));
  return Math.min(1, 0.15 + 0.45 * g(8, 1.5) + 0.3 * g(13.5, 2.5) + 0.85 * g(20, 2));
}

/** Solar output share at an hour of local time (0 at night, 1 at solar noon). */
function solarShare(hour: number): number {
  return Math.max(0, Math.sin((Math.PI * (hour - 6.5)) / 12.5));
}

/** The instantaneous values of one phase. */
interface PhaseNow {
  voltage: number;
  current: number;
  act_power: number;
  aprt_power: number;
  pf: number;
}

/** One simulated meter. */
export interface MeterModel {
  serial: string;
  /** `sensor/<serial lowercased>`. */
  prefix: string;
  /** The Shelly device id, used as MQTT client id and `src` of frames. */
  deviceId: string;
  nominalVoltage: number;
  /** Peak load per phase, W. */
  peakW: [number, number, number];
  /** Peak solar output on phase c, W (0: no solar). */
  solarW: number;
  /** Power factor magnitude per phase. */
  pf: [number, number, number];
  /** Some installations report negative pf with positive power (see the reference). */
  pfSign: 1 | -1;
  /** Local time offset from UTC, minutes. */
  utcOffsetMinutes: number;
  /** Epoch ms the model is at. */
  t: number;
  phases: [PhaseNow, PhaseNow, PhaseNow];
  /** Counters, Wh (full precision; published rounded to 0.01 Wh). */
  energyWh: [number, number, number];
  returnedWh: [number, number, number];
  /** The em:0 values last published in a frame (for partial frames). */
  lastSent: Record<string, number>;
  rng: () => number;
}

/** Options of {@link createMeter}. */
interface MeterOptions {
  /** Epoch ms the meter starts at. */
  t: number;
  seed?: number;
  /** Default 127 V (Mexico); 230 for Europe. */
  nominalVoltage?: number;
  /** Default -360 (UTC-6). */
  utcOffsetMinutes?: number;
}

/** A meter with a random but repeatable profile for its serial. */
export function createMeter(serial: string, options: MeterOptions): MeterModel {
  const rng = prng(options.seed ?? seedOf(serial));
  const scale = 800 + rng() * 2400;
  const m: MeterModel = {
    serial,
    prefix: sensorTopicPrefix(serial),
    deviceId: `shellypro3em-${serial.toLowerCase()}`,
    nominalVoltage: options.nominalVoltage ?? 127,
    peakW: [scale * (0.7 + rng() * 0.6), scale * (0.5 + rng() * 0.6), scale * (0.2 + rng() * 0.5)],
    solarW: rng() < 0.25 ? 1500 + rng() * 3000 : 0,
    pf: [0.86 + rng() * 0.13, 0.86 + rng() * 0.13, 0.8 + rng() * 0.19],
    pfSign: rng() < 0.2 ? -1 : 1,
    utcOffsetMinutes: options.utcOffsetMinutes ?? -360,
    t: options.t,
    phases: [emptyPhase(), emptyPhase(), emptyPhase()],
    energyWh: [rng() * 2e6, rng() * 1e6, rng() * 5e5],
    returnedWh: [0, 0, rng() < 0.5 ? rng() * 1e4 : 0],
    lastSent: {},
    rng,
  };
  computePhases(m);
  return m;
}

function emptyPhase(): PhaseNow {
  return { voltage: 0, current: 0, act_power: 0, aprt_power: 0, pf: 0 };
}

function localHour(m: MeterModel): number {
  const minutes = (m.t / 60_000 + m.utcOffsetMinutes) % 1440;
  return ((minutes + 1440) % 1440) / 60;
}

function computePhases(m: MeterModel): void {
  const hour = localHour(m);
  const load = dailyLoad(hour);
  for (let i = 0; i < 3; i++) {
    const noise = 1 + (m.rng() - 0.5) * 0.12;
    let power = m.peakW[i] * load * noise;
    if (i === 2 && m.solarW > 0) power -= m.solarW * solarShare(hour) * (0.9 + m.rng() * 0.1);
    const voltage = m.nominalVoltage * (1 + 0.015 * Math.sin(m.t / 3.6e6) + (m.rng() - 0.5) * 0.01);
    const pf = Math.min(1, m.pf[i] + (m.rng() - 0.5) * 0.02);
    const apparent = Math.abs(power) / pf;
    m.phases[i] = {
      voltage,
      current: apparent / voltage,
      act_power: power,
      aprt_power: apparent,
      pf: m.pfSign * pf,
    };
  }
}

/**
 * Advances the meter to `t` (epoch ms): the counters integrate the power held since the
 * last step (positive power counts as energy, negative as returned energy), then new
 * instantaneous values are drawn. Going backwards changes nothing.
 */
export function stepMeter(m: MeterModel, t: number): void {
  if (t <= m.t) return;
  const hours = (t - m.t) / 3.6e6;
  for (let i = 0; i < 3; i++) {
    const p = m.phases[i].act_power;
    if (p >= 0) m.energyWh[i] += p * hours;
    else m.returnedWh[i] += -p * hours;
  }
  m.t = t;
  computePhases(m);
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** The full `em:0` status object, in the device's key order. */
export function emStatus(m: MeterModel): Record<string, unknown> {
  const out: Record<string, unknown> = { id: 0 };
  PHASES.forEach((p, i) => {
    const ph = m.phases[i];
    out[`${p}_current`] = r3(ph.current);
    out[`${p}_voltage`] = r1(ph.voltage);
    out[`${p}_act_power`] = r1(ph.act_power);
    out[`${p}_aprt_power`] = r1(ph.aprt_power);
    out[`${p}_pf`] = r2(ph.pf);
    out[`${p}_freq`] = 60.0;
  });
  out.n_current = null;
  out.total_current = r3(m.phases.reduce((s, ph) => s + ph.current, 0));
  out.total_act_power = r3(m.phases.reduce((s, ph) => s + ph.act_power, 0));
  out.total_aprt_power = r3(m.phases.reduce((s, ph) => s + ph.aprt_power, 0));
  out.user_calibrated_phase = [];
  return out;
}

/** The full `emdata:0` status object (counters in Wh, two decimals). */
export function emDataStatus(m: MeterModel): Record<string, unknown> {
  const out: Record<string, unknown> = { id: 0 };
  PHASES.forEach((p, i) => {
    out[`${p}_total_act_energy`] = r2(m.energyWh[i]);
    out[`${p}_total_act_ret_energy`] = r2(m.returnedWh[i]);
  });
  out.total_act = r2(m.energyWh.reduce((s, x) => s + x, 0));
  out.total_act_ret = r2(m.returnedWh.reduce((s, x) => s + x, 0));
  return out;
}

/** The change thresholds of partial frames: 1 V, 0.05 A, 5 % or 10 W, 0.02 pf. */
function changed(key: string, before: number | undefined, now: number): boolean {
  if (before === undefined) return true;
  const d = Math.abs(now - before);
  if (key.endsWith("voltage")) return d >= 1;
  if (key.endsWith("current")) return d >= 0.05;
  if (key.endsWith("pf")) return d >= 0.02;
  if (key.endsWith("power")) return d >= 10 || d >= Math.abs(before) * 0.05;
  return d > 0;
}

/**
 * A NotifyStatus frame with the em:0 keys that changed past the meter's thresholds since
 * the last frame (all of them the first time), and the emdata:0 counters when `withData`.
 */
export function notifyStatus(m: MeterModel, withData = false): string {
  const em = emStatus(m);
  const partial: Record<string, unknown> = { id: 0 };
  for (const [key, value] of Object.entries(em)) {
    if (typeof value !== "number" || key === "id" || key.endsWith("freq")) continue;
    if (changed(key, m.lastSent[key], value)) {
      partial[key] = value;
      m.lastSent[key] = value;
    }
  }
  const params: Record<string, unknown> = { ts: r2(m.t / 1000), "em:0": partial };
  if (withData) params["emdata:0"] = emDataStatus(m);
  return JSON.stringify({
    src: m.deviceId,
    dst: `${m.prefix}/events`,
    method: "NotifyStatus",
    params,
  });
}

/** A NotifyFullStatus frame with em:0, emdata:0 and a few other components. */
export function notifyFullStatus(m: MeterModel): string {
  const em = emStatus(m);
  for (const [key, value] of Object.entries(em)) {
    if (typeof value === "number") m.lastSent[key] = value;
  }
  return JSON.stringify({
    src: m.deviceId,
    dst: `${m.prefix}/events`,
    method: "NotifyFullStatus",
    params: {
      ts: r2(m.t / 1000),
      ble: {},
      cloud: { connected: false },
      "em:0": em,
      "emdata:0": emDataStatus(m),
      mqtt: { connected: true },
      sys: { mac: m.deviceId.slice(-12).toUpperCase(), unixtime: Math.floor(m.t / 1000) },
    },
  });
}

/** One MQTT message a meter publishes. */
interface MeterMessage {
  topic: string;
  payload: string;
  retain: boolean;
}

/** What a meter publishes on one tick; see {@link tickMessages}. */
interface TickOptions {
  /** Tick number since connect (0 = first). */
  tick: number;
  /** Full status objects (`status/em:0`, `status/emdata:0`) every this many ticks. Default 6. */
  statusEvery?: number;
  /** emdata:0 counters inside the NotifyStatus frame every this many ticks. Default 6. */
  dataEvery?: number;
}

/**
 * The messages of one tick: a NotifyFullStatus on the first tick, NotifyStatus partial
 * frames afterwards (with the counters every `dataEvery` ticks), and the full status
 * objects every `statusEvery` ticks.
 */
export function tickMessages(m: MeterModel, options: TickOptions): MeterMessage[] {
  const { tick } = options;
  const statusEvery = options.statusEvery ?? 6;
  const dataEvery = options.dataEvery ?? 6;
  const out: MeterMessage[] = [];
  const rpc = `${m.prefix}/events/rpc`;
  if (tick === 0) {
    out.push({ topic: rpc, payload: notifyFullStatus(m), retain: false });
  } else {
    out.push({ topic: rpc, payload: notifyStatus(m, tick % dataEvery === 0), retain: false });
  }
  if (statusEvery > 0 && tick % statusEvery === 0) {
    out.push({
      topic: `${m.prefix}/status/em:0`,
      payload: JSON.stringify(emStatus(m)),
      retain: false,
    });
    out.push({
      topic: `${m.prefix}/status/emdata:0`,
      payload: JSON.stringify(emDataStatus(m)),
      retain: false,
    });
  }
  return out;
}

/** Patterns of simulated meters' serials and credentials; `{n}` is the meter number. */
interface SimNaming {
  /** Serial pattern, default `SIM{n}` with n zero-padded to 4 digits. */
  serial: string;
  /** Username pattern; `{serial}` and `{serial_lower}` are replaced. Default `{serial_lower}`. */
  username: string;
  /** Password pattern, same placeholders. Default `sim-{serial_lower}-pass` (12+ characters, as the portal asks of a device password). */
  password: string;
}

/** The default {@link SimNaming}. */
export const DEFAULT_SIM_NAMING: SimNaming = {
  serial: "SIM{n}",
  username: "{serial_lower}",
  password: "sim-{serial_lower}-pass",
};

/** Serial, username and password of simulated meter number `n` (from 1). */
export function simIdentity(
  n: number,
  naming: SimNaming = DEFAULT_SIM_NAMING,
): { serial: string; username: string; password: string } {
  const serial = naming.serial.replaceAll("{n}", String(n).padStart(4, "0"));
  const fill = (p: string) =>
    p.replaceAll("{serial_lower}", serial.toLowerCase()).replaceAll("{serial}", serial)
      .replaceAll("{n}", String(n).padStart(4, "0"));
  return { serial, username: fill(naming.username), password: fill(naming.password) };
}
