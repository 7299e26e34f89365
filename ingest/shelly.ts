/**
 * Interpreting one Shelly Pro 3EM MQTT message (pure): the topic after the device prefix
 * and its payload become an online flag, a reading (measurement values at a time), a
 * message ignored on purpose, or a message dropped with a reason. Payloads are read
 * defensively: malformed JSON, wrong types and out-of-range numbers never throw.
 *
 * Topics (see the Shelly reference): `online` (`true`/`false`, the Last Will is `false`),
 * `status/em:0` and `status/emdata:0` (full objects; also `em1:N`/`em1data:N` of the
 * monophase profile), `events/rpc` (NotifyStatus partial frames overlaid on the last
 * known state, NotifyFullStatus replacing it).
 */
import { classifyTopic } from "./shelly_topic.ts";
import { COMPONENT_REFS, componentRef } from "./shelly_fields.ts";
import { type Scan, scanPayload } from "./shelly_scan.ts";
import {
  applyComponent,
  applyFields,
  type ApplyMode,
  type MeterState,
  newMeterState,
} from "./shelly_state.ts";
import { TOUCHED, type Values, valuesOf } from "./shelly_values.ts";

export { splitDeviceTopic } from "./shelly_topic.ts";
export { newMeterState } from "./shelly_state.ts";

/** Why a message was dropped. */
type InterpretDropReason = "malformed_json" | "wrong_type" | "unknown_topic";

/** What a message meant. */
export type Interpretation =
  | { type: "online"; online: boolean }
  | {
    type: "reading";
    /**
     * Epoch ms: the frame's `params.ts` when present and sane, else `untimedMs` (the
     * arrival time unless the caller knows better).
     */
    ts: number;
    /** Whether `ts` is the frame's own time. */
    timed: boolean;
    values: Values;
    /** Fields dropped for a wrong type or an out-of-range value. */
    invalidFields: number;
  }
  | { type: "ignored"; what: string }
  | { type: "dropped"; reason: InterpretDropReason; detail: string };

/** How far a frame's own time may be from its arrival before the arrival time is used. */
export interface TimeWindow {
  /** How old a frame time may be (a queued backlog after an outage). Default 7 days. */
  maxAgeMs: number;
  /** How far ahead of arrival a frame time may be (clock skew). Default 5 minutes. */
  maxAheadMs: number;
}

/** The default {@link TimeWindow}. */
export const DEFAULT_TIME_WINDOW: TimeWindow = { maxAgeMs: 7 * 86_400_000, maxAheadMs: 300_000 };

/** How messages are interpreted. */
export interface InterpretOptions extends TimeWindow {
  /**
   * true (default): a NotifyStatus reading carries the whole known state with the frame's
   * changes overlaid. false: it carries only what the frame itself says (for ingest
   * processes on a shared subscription, where each sees only some of a meter's frames and
   * an overlaid state could hold values older than another process has stored).
   */
  overlayPartialFrames: boolean;
}

/** The default {@link InterpretOptions}. */
export const DEFAULT_INTERPRET: InterpretOptions = {
  ...DEFAULT_TIME_WINDOW,
  overlayPartialFrames: true,
};

/**
 * The time of a frame: `params.ts` (Unix seconds, fractional) when it is a finite number
 * inside the window around the arrival time; otherwise the arrival time.
 */
export function frameTime(ts: unknown, arrivalMs: number, window: TimeWindow): number {
  return saneFrameTime(ts, arrivalMs, window) ?? arrivalMs;
}

/** A frame's own time in epoch ms, or null when absent or not sane. */
function saneFrameTime(ts: unknown, arrivalMs: number, window: TimeWindow): number | null {
  if (typeof ts !== "number" || !Number.isFinite(ts)) return null;
  const ms = Math.round(ts * 1000);
  if (ms < arrivalMs - window.maxAgeMs || ms > arrivalMs + window.maxAheadMs) return null;
  return ms;
}

/** What {@link parseJson} answers for a payload that is not JSON. */
const NOT_JSON = Symbol("not JSON");

function parseJson(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return NOT_JSON;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

const MALFORMED = {
  type: "dropped",
  reason: "malformed_json",
  detail: "payload is not JSON",
} as const;

/**
 * Applies metering components of a status object or frame params and turns the result
 * into an interpretation.
 */
function applyComponents(
  state: MeterState,
  components: Record<string, unknown>,
  mode: ApplyMode,
  ts: number,
  timed: boolean,
  what: string,
): Interpretation {
  let touched = 0;
  let invalid = 0;
  let metering = 0;
  for (const key in components) {
    const ref = componentRef(key);
    if (!ref) continue;
    metering++;
    const result = applyComponent(state, ref, components[key], mode);
    if (result === null) {
      invalid++;
      continue;
    }
    invalid += result.invalid;
    if (result.accepted > 0) touched |= TOUCHED[ref.type];
  }
  if (metering === 0) return { type: "ignored", what };
  return interpretation(state, touched, invalid, ts, timed, what);
}

/** The interpretation of a message whose metering components touched `touched`. */
function interpretation(
  state: MeterState,
  touched: number,
  invalid: number,
  ts: number,
  timed: boolean,
  what: string,
): Interpretation {
  if (touched === 0) {
    if (invalid > 0) {
      return {
        type: "dropped",
        reason: "wrong_type",
        detail: `${what}: no usable field (${invalid} of a wrong type or out of range)`,
      };
    }
    return { type: "ignored", what: `${what} without metering fields` };
  }
  const values = valuesOf(state, touched);
  if (values === null) {
    return { type: "ignored", what: `${what} with unknown (null) values only` };
  }
  return { type: "reading", ts, timed, values, invalidFields: invalid };
}

/**
 * Interprets one message of a device. `rest` is the topic after the device prefix
 * (`online`, `status/em:0`, `events/rpc`, ...); `state` is the device's last known
 * metering state and is updated in place. `untimedMs` is the time given to readings that
 * carry none of their own (status objects, frames without a sane `ts`); it defaults to
 * the arrival time.
 */
export function interpretMessage(
  state: MeterState,
  rest: string,
  payload: string,
  arrivalMs: number,
  options: InterpretOptions = DEFAULT_INTERPRET,
  untimedMs: number = arrivalMs,
): Interpretation {
  const topic = classifyTopic(rest);
  switch (topic.kind) {
    case "other":
      return { type: "dropped", reason: "unknown_topic", detail: `unknown topic "${rest}"` };
    case "unused":
      return { type: "ignored", what: rest };
  }
  // A zero-length payload clears a retained message; it carries no reading.
  if (payload.length === 0) return { type: "ignored", what: `empty ${rest}` };
  if (topic.kind === "online") {
    const text = payload.trim();
    if (text === "true") return { type: "online", online: true };
    if (text === "false") return { type: "online", online: false };
    return {
      type: "dropped",
      reason: "wrong_type",
      detail: `online must be true or false, got ${JSON.stringify(payload.slice(0, 40))}`,
    };
  }
  if (topic.kind === "status") {
    const ref = componentRef(topic.component);
    if (!ref) return { type: "ignored", what: rest };
    const parsed = parseJson(payload);
    if (parsed === NOT_JSON) return MALFORMED;
    if (!isObject(parsed)) {
      return { type: "dropped", reason: "wrong_type", detail: `${rest} is not an object` };
    }
    const result = applyComponent(state, ref, parsed, "replace")!;
    const touched = result.accepted > 0 ? TOUCHED[ref.type] : 0;
    return interpretation(state, touched, result.invalid, untimedMs, false, rest);
  }
  // events/rpc
  const frame = parseJson(payload);
  if (frame === NOT_JSON) return MALFORMED;
  if (!isObject(frame)) {
    return { type: "dropped", reason: "wrong_type", detail: "events/rpc frame is not an object" };
  }
  const method = frame.method;
  if (method !== "NotifyStatus" && method !== "NotifyFullStatus") {
    return {
      type: "ignored",
      what: typeof method === "string" ? `events/rpc ${method.slice(0, 40)}` : "events/rpc",
    };
  }
  const params = frame.params;
  if (!isObject(params)) {
    return { type: "dropped", reason: "wrong_type", detail: `${method} params is not an object` };
  }
  const own = saneFrameTime(params.ts, arrivalMs, options);
  const ts = own ?? untimedMs;
  const timed = own !== null;
  if (method === "NotifyFullStatus") {
    return applyComponents(state, params, "replace", ts, timed, method);
  }
  if (options.overlayPartialFrames) {
    return applyComponents(state, params, "overlay", ts, timed, method);
  }
  // Only what the frame says; the state still follows it.
  applyComponents(state, params, "overlay", ts, timed, method);
  return applyComponents(newMeterState(), params, "overlay", ts, timed, method);
}

const decoder = new TextDecoder();

/** Applies the components a scan read; answers the types touched and the fields refused. */
function applyScan(state: MeterState, scan: Scan, mode: ApplyMode): [number, number] {
  let touched = 0;
  let invalid = 0;
  for (const index of scan.present) {
    const ref = COMPONENT_REFS[index];
    const result = applyFields(state, ref, scan.values[index], scan.marks[index], mode);
    invalid += result.invalid;
    if (result.accepted > 0) touched |= TOUCHED[ref.type];
  }
  return [touched, invalid];
}

/**
 * {@link interpretMessage} of a payload as the bytes MQTT carried, with the same answers: the
 * common metering payloads are read from the bytes (`shelly_scan.ts`), any other goes through
 * its text.
 */
export function interpretBytes(
  state: MeterState,
  rest: string,
  payload: Uint8Array,
  arrivalMs: number,
  options: InterpretOptions = DEFAULT_INTERPRET,
  untimedMs: number = arrivalMs,
): Interpretation {
  const topic = classifyTopic(rest);
  if (topic.kind === "status") {
    const ref = componentRef(topic.component);
    const scan = ref && scanPayload(payload, ref);
    if (scan) {
      const [touched, invalid] = applyScan(state, scan, "replace");
      return interpretation(state, touched, invalid, untimedMs, false, rest);
    }
  } else if (topic.kind === "events_rpc") {
    const scan = scanPayload(payload, null);
    if (scan) {
      const own = saneFrameTime(scan.ts, arrivalMs, options);
      const ts = own ?? untimedMs;
      const timed = own !== null;
      const method = scan.full ? "NotifyFullStatus" : "NotifyStatus";
      if (scan.full || options.overlayPartialFrames) {
        const [touched, invalid] = applyScan(state, scan, scan.full ? "replace" : "overlay");
        return interpretation(state, touched, invalid, ts, timed, method);
      }
      // Only what the frame says; the state still follows it.
      applyScan(state, scan, "overlay");
      const frameOnly = newMeterState();
      const [touched, invalid] = applyScan(frameOnly, scan, "overlay");
      return interpretation(frameOnly, touched, invalid, ts, timed, method);
    }
  }
  return interpretMessage(state, rest, decoder.decode(payload), arrivalMs, options, untimedMs);
}
