/** Query schemas of `/api/measurements*` and `/api/analytics*` (messages are locale keys). */
import { z } from "zod";
import { MEASUREMENT_KEYS } from "./devices.ts";

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** GET /api/measurements?type=power&mode=&date= */
export const chartQuerySchema = z.object({
  type: z.literal("power", { error: "validation.invalid" }).default("power"),
  mode: z.enum(["day", "month", "year", "total"], { error: "validation.invalid" }).default("day"),
  date: z.string().regex(DATE, "validation.date_invalid").optional(),
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
  month: z.string().regex(MONTH, "validation.month_invalid").optional(),
});

/** GET /api/measurements/system-performance */
export const performanceQuerySchema = z.object({
  timeframe: z.enum(["24h", "7d", "30d"], { error: "validation.invalid" }).default("24h"),
});

/** GET /api/analytics/uptime/{id} */
export const uptimeQuerySchema = z.object({
  month: z.string().regex(MONTH, "validation.month_invalid").optional(),
});

const instant = z.string({ error: "validation.date_invalid" }).transform((v, ctx) => {
  const ms = DATE.test(v) ? Date.parse(`${v}T00:00:00Z`) : Date.parse(v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(ms)) {
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
