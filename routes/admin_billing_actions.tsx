/**
 * The admin's actions on a billing page beside processing and deleting (issue 9): recording a
 * payment received outside the processor (`GET|POST {base}/bills/{id}/payment`, unit bills)
 * and the CSV export of the listed bills of a zone and period (`GET {base}/export.csv`, the
 * columns of the screen, amounts in currency units, UTF-8 with a header row).
 */
import { acting } from "./_audit.ts";
import { Hono } from "hono";
import type { Context } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { idParam, readForm } from "./_http.ts";
import { renderPage } from "./_page.tsx";
import { checked, queryInput, queryOf, textQuery } from "./_validate.ts";
import { billExportSchema, paymentRecordSchema } from "../core/billing_input.ts";
import type { BillingPath } from "./_billing_paths.ts";
import {
  recordPayment,
  stationBillRows,
  unitBillRow,
  unitBillRows,
} from "../services/billing/mod.ts";
import { conflict, notFound, Refusal } from "../services/refusal.ts";
import { centsToUnits } from "../core/money.ts";
import { periodLabel } from "../components/billing/model.ts";
import { paymentText } from "../components/billing/UnitBills.tsx";
import { PaymentRecordForm } from "../components/billing/PaymentRecordForm.tsx";
import { type CsvCell, csvNumber, csvText } from "./_csv.ts";
import { clockOf } from "../services/platform/clock.ts";

const BACK_KEYS = ["zone_id", "year", "period"] as const;

/** The picker values to come back to, from a query or a form. */
function backFrom(src: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of BACK_KEYS) {
    const v = src[k];
    if (typeof v === "string" && /^[\d-]{1,15}$/.test(v)) out[k] = v;
  }
  return out;
}

/** The action routes of one billing page, mounted at its address. */
export function billingActionRoutes(deps: Deps, path: BillingPath): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  const { base, mode } = path;

  const paymentPage = async (
    c: Context<UserEnv>,
    values: { method?: string; payment_date: string; reference?: string; note?: string },
    errors: Record<string, string>,
    message: string | null,
    back: Record<string, string>,
  ) => {
    const id = idParam(c.req.param("id"));
    const bill = id === null ? null : await unitBillRow(deps, id);
    if (!bill) throw notFound("billing.errors.bill_not_found");
    if (!bill.can_record_payment) throw conflict("billing.errors.bill_not_payable");
    const t = c.var.t;
    return renderPage(c, deps, t("billing.payment_record.title"), PaymentRecordForm, {
      bill,
      action: `${base}/bills/${bill.id}/payment`,
      cancelHref: `${base}?${new URLSearchParams(back)}`,
      back,
      values,
      errors,
      message,
    }, Object.keys(errors).length > 0 || message ? 400 : 200);
  };

  if (mode === "units") {
    app.get("/bills/:id/payment", (c) => {
      const today = clockOf(deps).todayText();
      return paymentPage(c, { payment_date: today }, {}, null, backFrom(queryOf(c, textQuery)));
    });

    app.post("/bills/:id/payment", async (c) => {
      const form = await readForm(c);
      const back = backFrom(form);
      const id = idParam(c.req.param("id"));
      const str = (k: string) => typeof form[k] === "string" ? form[k] as string : undefined;
      const values = {
        method: str("method"),
        payment_date: str("payment_date") ?? "",
        reference: str("reference"),
        note: str("note"),
      };
      try {
        if (id === null) throw notFound("billing.errors.bill_not_found");
        await recordPayment(acting(c, deps), id, checked(paymentRecordSchema, values), c.var.user);
      } catch (e) {
        if (!(e instanceof Refusal) || e.kind === "not_found") throw e;
        const t = c.var.t;
        const errors = Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [k, t(v)]));
        return paymentPage(c, values, errors, e.kind === "invalid" ? null : t(e.key), back);
      }
      return c.redirect(`${base}?${new URLSearchParams({ ...back, done: "paid" })}`, 303);
    });
  }

  app.get("/export.csv", queryInput(billExportSchema, { fields: "first" }), async (c) => {
    const t = c.var.t;
    const { zone_id: zoneId, period: p } = c.req.valid("query");
    let rows: CsvCell[][];
    if (mode === "units") {
      const C = (k: string) => t(`billing.unit_billing.columns.${k}`);
      const today = clockOf(deps).today();
      const current = p.year === today.year && p.months.includes(today.month);
      const bills = await unitBillRows(deps, zoneId, p.text, current);
      rows = [
        [
          C("station"),
          C("unit"),
          C("tenant"),
          C("energy"),
          C("total_cost"),
          "currency",
          C("status"),
          C("payment"),
        ],
        ...bills.map((b) => [
          b.station,
          b.unit,
          b.tenant ?? t("billing.unit_billing.not_assigned"),
          csvNumber(b.energy_kwh, 2),
          csvNumber(centsToUnits(b.total_cost), 2),
          b.currency,
          t(`billing.status.${b.status.key}`),
          paymentText(t, b),
        ]),
      ];
    } else {
      const C = (k: string) => t(`billing.station_billing.columns.${k}`);
      const bills = await stationBillRows(deps, zoneId, p.text);
      const money = (cents: number) => csvNumber(centsToUnits(cents), 2);
      rows = [
        [
          C("type"),
          C("period"),
          C("station"),
          C("customer"),
          C("energy"),
          C("commission"),
          C("fee"),
          C("tax"),
          C("total_amount"),
          "currency",
          C("status"),
        ],
        ...bills.map((b) => [
          t(`billing.billing_types.${b.kind}`),
          periodLabel(t, b.period),
          b.station,
          b.customer ?? t("billing.station_billing.not_assigned"),
          csvNumber(b.energy_kwh, 2),
          money(b.commission),
          money(b.fee),
          money(b.tax),
          money(b.total),
          b.currency,
          t(`billing.status.${b.is_finalized ? "finalized" : "draft"}`),
        ]),
      ];
    }
    const name = `${mode === "units" ? "unit" : "station"}_bills_${zoneId}_${p.text}.csv`;
    return c.body(csvText(rows), 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
    });
  });
  return app;
}
