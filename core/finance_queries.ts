/** Query schemas of the finance API and page (messages are locale keys). */
import { z } from "zod";
import { FINANCE_CURRENCIES } from "./finances.ts";

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "validation.invalid").refine(
  (s) =>
    !isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
  "validation.invalid",
);
const currency = z.enum(FINANCE_CURRENCIES, { error: "validation.invalid" });

/** `?currency=&start_date=&end_date=`: all optional; an empty value counts as omitted. */
export const financeQuerySchema = z.preprocess(
  (q) =>
    Object.fromEntries(
      Object.entries((q ?? {}) as Record<string, unknown>).filter(([, v]) => v !== ""),
    ),
  z.object({
    currency: currency.optional(),
    start_date: date.optional(),
    end_date: date.optional(),
  }).refine((q) => !q.start_date || !q.end_date || q.start_date <= q.end_date, {
    message: "validation.invalid",
    path: ["end_date"],
  }),
);

/** What {@link financeQuerySchema} answers. */
export type FinanceQuery = z.output<typeof financeQuerySchema>;
