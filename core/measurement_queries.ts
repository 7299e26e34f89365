/** Query schemas of `/api/measurements*` and `/api/analytics*` (messages are locale keys). */
import { z } from "zod";
import { MEASUREMENT_KEYS } from "./devices.ts";
import { isRealDate, isRealMonth } from "./local_time.ts";

/** A real calendar day `YYYY-MM-DD` from 1970. */
const day = z.string().refine(isRealDate, "validation.date_invalid");
/** A month `YYYY-MM` from 1970. */
const month = z.string().refine(isRealMonth, "validation.month_invalid");

/** GET /api/measurements?type=power&mode=&date= */
export const chartQuerySchema = z.object({
  type: z.literal("power", { error: "validation.invalid" }).default("power"),
  mode: z.enum(["day", "month", "year", "total"], { error: "validation.invalid" }).default("day"),
  date: day.optional(),
});

/** GET /api/measurements/{id}/history */
export const historyQuerySchema = z.object({
  timerange: z.literal("day", { error: "validation.invalid" }).default("day"),
  aggregation: z.enum(["15m", "1h"], { error: "validation.invalid" }).default("15m"),
  measurement: z.enum(MEASUREMENT_KEYS, { error: "validation.invalid" }).default("total_power"),
});

/** GET /api/measurements/{id}/summary */
export const summaryQuerySchema = z.object({
  timerange: z.literal("month", { error: "validation.invalid" }).default("month"),
  month: month.optional(),
});

/** GET /api/measurements/system-performance */
export const performanceQuerySchema = z.object({
  timeframe: z.enum(["24h", "7d", "30d"], { error: "validation.invalid" }).default("24h"),
});

/** GET /api/analytics/uptime/{id} */
export const uptimeQuerySchema = z.object({
  month: month.optional(),
});

const instant = z.string({ error: "validation.date_invalid" }).transform((v, ctx) => {
  const ms = isRealDate(v) ? Date.parse(`${v}T00:00:00Z`) : Date.parse(v);
  if (!isRealDate(v.slice(0, 10)) || Number.isNaN(ms)) {
    ctx.addIssue({ code: "custom", message: "validation.date_invalid" });
    return z.NEVER;
  }
  return ms;
});

/** GET /api/analytics/delta?sensorId&startDate&endDate&field */
export const deltaQuerySchema = z.object({
  sensorId: z.coerce.number({ error: "validation.invalid" }).int("validation.invalid").positive(
    "validation.invalid",
  ),
  startDate: instant,
  endDate: instant,
  field: z.enum(
    ["total_energy_kwh", "phase_a_energy_kwh", "phase_b_energy_kwh", "phase_c_energy_kwh"],
    { error: "validation.invalid" },
  ).default("total_energy_kwh"),
}).refine((v) => v.endDate > v.startDate, {
  path: ["endDate"],
  message: "validation.date_order",
});
