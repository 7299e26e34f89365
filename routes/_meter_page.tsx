/**
 * The sensor page's meter cards (`components/devices/sensor/MeterCards.tsx`): the history and
 * manual readings worded in the admin's language and time zone, and the two forms with what
 * was typed and the field errors of a refused post.
 */
import type { Context } from "hono";
import type { ReactNode } from "react";
import type { AppEnv, Deps } from "./_deps.ts";
import { type Form, formString as str } from "./_http.ts";
import type { FieldErrors } from "../core/schemas.ts";
import { meterOverview } from "../services/devices/meter_history.ts";
import { MeterCards, type MeterCardsProps } from "../components/devices/sensor/MeterCards.tsx";
import { clockOf } from "../services/platform/clock.ts";

/** The fields of the two forms. */
export const READING_FIELDS = ["at", "kwh", "note"] as const;
export const REPLACE_FIELDS = ["serial_number", "at", "last_kwh", "first_kwh"] as const;

/** A refused post of one of the forms: what was typed, the errors (locale keys), the box. */
export interface MeterFormState {
  form: "reading" | "replace";
  values: Record<string, string>;
  errors: FieldErrors;
  error: string;
  /** Placeholders of the messages. */
  params?: Record<string, string | number>;
}

/** The posted fields of a form. */
export function postedValues(form: Form, fields: readonly string[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f, str(form, f)]));
}

/** The sensor page's path of a sensor's meter actions. */
const meterActionsPath = (stationId: number, sensorId: number) =>
  `/admin/devices/station/${stationId}/sensor/${sensorId}/meter`;

/** The meter cards of a sensor, with a refused form's state when there is one. */
export async function meterCards<E extends AppEnv>(
  c: Context<E>,
  deps: Deps,
  stationId: number,
  sensor: { id: number; serial_number: string },
  refused: MeterFormState | undefined,
  /** The page query's `done`: the notice of a form that went through. */
  done: string | undefined,
): Promise<ReactNode> {
  const t = c.var.t;
  const lang = c.var.lang;
  const when = clockOf(deps).localDateTime;
  const kwh = (n: number | null) =>
    n === null ? t("meters.history.not_read") : n.toLocaleString(lang, {
      maximumFractionDigits: 3,
    });
  const o = await meterOverview(deps, sensor);
  const now = when(deps.now()).replace(" ", "T");
  const state = (form: MeterFormState["form"], fields: readonly string[]) => {
    const mine = refused?.form === form ? refused : undefined;
    const blank = Object.fromEntries(fields.map((f) => [f, f === "at" ? now : ""]));
    return {
      action: `${meterActionsPath(stationId, sensor.id)}/${form}`,
      values: mine ? { ...blank, ...mine.values } : blank,
      errors: Object.fromEntries(
        Object.entries(mine?.errors ?? {}).map(([k, v]) => [k, t(v, mine?.params)]),
      ),
      error: mine?.error,
    };
  };
  const props: MeterCardsProps = {
    t,
    meters: o.meters.map((m) => ({
      serial: m.serial,
      from: Number.isFinite(m.from) ? when(m.from) : t("meters.history.since_ever"),
      to: m.to === null ? t("meters.history.in_service") : when(m.to),
      first: kwh(m.first_kwh),
      last: kwh(m.last_kwh),
    })),
    readings: o.readings.map((r) => ({
      at: when(r.at),
      kwh: kwh(r.kwh),
      serial: r.serial,
      note: r.note,
    })),
    reading: state("reading", READING_FIELDS) as MeterCardsProps["reading"],
    replace: state("replace", REPLACE_FIELDS) as MeterCardsProps["replace"],
    notice: done === "reading_saved"
      ? t("meters.reading_form.saved")
      : done === "meter_replaced"
      ? t("meters.replace_form.done")
      : undefined,
  };
  return <MeterCards {...props} />;
}
