/** Query schemas of the tenant API and pages (messages are locale keys), the unit view's tabs. */
import { z } from "zod";
import { isPeriod } from "./periods.ts";

/** `?year=` of the tenant billing overview: 2000-2100, optional. */
export const yearQuerySchema = z.object({
  year: z.coerce.number({ error: "validation.invalid" }).int("validation.invalid").min(
    2000,
    "validation.invalid",
  ).max(2100, "validation.invalid").optional(),
});

/** `?period=` of the tenant billing detail: `YYYY-MM` or `YYYY-MM-MM`, required. */
export const periodQuerySchema = z.object({
  period: z.string({ error: "validation.required" }).refine(isPeriod, "validation.invalid"),
});

/** The billing page: year and period, both optional (an invalid one is a bad request). */
export const billingPageQuerySchema = z.object({
  year: yearQuerySchema.shape.year,
  period: z.string().refine(isPeriod, "validation.invalid").optional(),
});

/** Tabs of the unit view. */
export const UNIT_TABS = ["overview", "analytics", "insights"] as const;
/** A tab of the unit view. */
export type UnitTab = typeof UNIT_TABS[number];
