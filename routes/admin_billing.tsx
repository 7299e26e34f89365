/**
 * Admin billing pages (spec 001 sections 2, 4, 5 and 8; issue 9): `/admin/units-billing` (unit
 * bills) and `/admin/stations-billing` (station bills), and the spec's other named paths
 * `/admin/billing` and `/admin/bimester-billing` (monthly and bimonthly unit bills),
 * `/admin/customer-billing` and `/admin/bimester-customer-billing` (monthly and bimonthly
 * station bills), which list only the zones of their billing type. Each page has the
 * zone/year/period pickers (a GET form), a process form (`…/process`), tiles, the bills of the
 * period, a delete per bill (`…/bills/{id}/delete`), and the actions of
 * `admin_billing_actions.tsx` (record a payment, CSV export).
 *
 * Every form works without JavaScript: the process and delete forms post without
 * `confirm=yes` and get a confirmation page; with JavaScript the ConfirmSubmit island asks in
 * a dialog. Results come back on the redirected page as query flags. The /admin guard is
 * `routes/admin.tsx`'s.
 */
import { acting } from "./_audit.ts";
import { Hono } from "hono";
import type { Context } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { idParam, readForm } from "./_http.ts";
import { appPage, renderPage } from "./_page.tsx";
import {
  billYears,
  deleteCustomerBillById,
  deleteUnitBillById,
  runBilling,
  zoneChoices,
} from "../services/billing/mod.ts";
import { Refusal } from "../services/refusal.ts";
import { isPeriod } from "../core/periods.ts";
import {
  pageQuery,
  periodLabel,
  type Pickers,
  resolvePickers,
  yearOfPeriod,
  type ZoneChoice,
} from "../components/billing/model.ts";
import {
  BillingConfirmPage,
  type BillingConfirmPageProps,
  type ProcessResult,
} from "../components/billing/BillingControls.tsx";
import { BillingPage } from "../components/billing/BillingPage.tsx";
import { billingActionRoutes } from "./admin_billing_actions.tsx";
import { checked, queryOf, textQuery } from "./_validate.ts";
import { billingRunSchema } from "../core/billing_input.ts";
import { listOf } from "./admin_billing_list.tsx";
import { BILLING_PATHS, type BillingPath } from "./_billing_paths.ts";
import { clockOf } from "../services/platform/clock.ts";

const FAIL_REASONS = ["invalid_period", "future_period", "invalid_zone", "zone_not_found"];
const DELETE_ERRORS = ["bill_paid", "bill_live_reference", "bill_not_found", "bill_changed"];

/** A non-negative integer query value, or 0. */
const count = (v: string | undefined) => (/^\d{1,9}$/.test(v ?? "") ? Number(v) : 0);

/** The back fields (validated picker values) a form carries. */
function backOf(form: Record<string, string | string[]>): {
  zone_id: number | null;
  year: number | null;
  period: string | null;
} {
  const str = (k: string) => (typeof form[k] === "string" ? form[k] as string : "");
  const period = isPeriod(str("period")) ? str("period") : null;
  const year = /^\d{4}$/.test(str("year")) ? Number(str("year")) : yearOfPeriod(period);
  return { zone_id: idParam(str("zone_id")), year, period };
}

/** The result of a run read back from the redirect's flags. */
function resultOf(c: Context<UserEnv>, period: string): ProcessResult | null {
  const q = queryOf(c, textQuery);
  const t = c.var.t;
  if (q.result === "ok") {
    return {
      ok: true,
      period,
      finalized: q.fin === "1",
      stations: count(q.stations),
      units: {
        created: count(q.uc),
        updated: count(q.uu),
        skipped: count(q.us),
        estimated: count(q.ue),
        failed: count(q.uf),
        missing: count(q.um),
      },
      station_bills: {
        created: count(q.sc),
        updated: count(q.su),
        skipped: count(q.ss),
        failed: count(q.sf),
      },
    };
  }
  if (q.result === "failed") {
    const reason = FAIL_REASONS.includes(q.reason ?? "")
      ? t(`billing.errors.${q.reason}`)
      : t("billing.errors.server_error", { status: 500 });
    return { ok: false, message: reason };
  }
  return null;
}

/** The pickers of a page from its query. */
async function pickersOf(
  c: Context<UserEnv>,
  deps: Deps,
  path: BillingPath,
): Promise<Pickers> {
  const q = queryOf(c, textQuery);
  const zones: ZoneChoice[] = await zoneChoices(deps, path.kind);
  const years = await billYears(deps, path.mode);
  return resolvePickers(
    zones,
    { zone_id: q.zone_id, year: q.year, period: q.period },
    (z) => years.get(z.id) ?? [],
    clockOf(deps).today(),
  );
}

/** Routes of every billing page, mounted at /admin: each page at its own prefix. */
export function adminBillingRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  for (const path of BILLING_PATHS) {
    app.route(path.base.slice("/admin".length), billingPageRoutes(deps, path));
  }
  return app;
}

/** One billing page (`path.base`) and its actions, mounted at its own address. */
function billingPageRoutes(deps: Deps, path: BillingPath): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  const { base, mode } = path;
  const section = mode === "units" ? "unit_billing" : "station_billing";

  app.get("/", async (c) => {
    const t = c.var.t;
    const q = queryOf(c, textQuery);
    const pickers = await pickersOf(c, deps, path);
    const { list, total, finalized } = await listOf(c, deps, path, pickers);
    const result = resultOf(c, pickers.period);
    const deleteError = DELETE_ERRORS.includes(q.error ?? "") ? `billing.errors.${q.error}` : null;
    const title = path.title ? t(`billing.paths.${path.title}`) : t(`billing.${section}.title`);
    const notice = q.done === "deleted"
      ? t("billing.messages.bill_deleted")
      : q.done === "paid"
      ? t("billing.payment_record.done")
      : null;
    return renderPage(c, deps, title, BillingPage, {
      mode,
      base,
      title: path.title ? title : undefined,
      pickers,
      result,
      notice,
      error: deleteError
        ? t(deleteError)
        : pickers.zones.length === 0 && path.kind
        ? t("billing.paths.no_zones_of_kind")
        : null,
      noUnitBills: mode === "stations" && result?.ok === true &&
        result.station_bills.created + result.station_bills.updated === 0,
      total,
      finalized,
      list,
    });
  });

  /** The confirmation step of a post, carrying the picker values (the year when asked) back. */
  const confirmStep = (
    c: Context<UserEnv>,
    back: ReturnType<typeof backOf>,
    withYear: boolean,
    props: Omit<BillingConfirmPageProps, "fields" | "cancelHref">,
  ) => {
    const fields: Record<string, string> = {};
    if (back.zone_id) fields.zone_id = String(back.zone_id);
    if (withYear && back.year) fields.year = String(back.year);
    if (back.period) fields.period = back.period;
    return appPage(
      c,
      deps,
      props.title,
      <BillingConfirmPage {...props} fields={fields} cancelHref={`${base}${pageQuery(back)}`} />,
    );
  };

  app.post("/process", async (c) => {
    const t = c.var.t;
    const form = await readForm(c);
    const back = backOf(form);
    const D = (k: string, p?: Record<string, string | number>) =>
      t(`billing.process.confirm_dialog.${k}`, p);
    if (form.confirm !== "yes") {
      const zones = await zoneChoices(deps, path.kind).catch(() => []);
      const zone = zones.find((z) => z.id === back.zone_id);
      return confirmStep(c, back, false, {
        title: D("title"),
        message: `${
          D("message", {
            zone: zone?.name ?? String(back.zone_id ?? "-"),
            period: back.period ? periodLabel(t, back.period) : "-",
          })
        } ${D("warning")}`,
        action: `${base}/process`,
        confirmLabel: D("confirm"),
        cancelLabel: D("cancel"),
      });
    }
    try {
      const input = checked(billingRunSchema, { period: form.period, zone_id: form.zone_id }, {
        fields: "first",
      });
      const r = await runBilling(acting(c, deps), input.zone_id, input.period, {
        author: String(c.var.user.id),
      });
      const flags = {
        result: "ok",
        fin: r.finalized ? 1 : 0,
        stations: r.stations_processed,
        uc: r.unit_bills.created,
        uu: r.unit_bills.updated,
        us: r.unit_bills.skipped,
        ue: r.unit_bills.estimated,
        um: r.missing_readings.length,
        uf: r.unit_bills.failed,
        sc: r.station_bills.created,
        su: r.station_bills.updated,
        ss: r.station_bills.skipped,
        sf: r.station_bills.failed,
      };
      return c.redirect(`${base}${pageQuery(back, flags)}`, 303);
    } catch (e) {
      let reason = "server";
      if (e instanceof Refusal) {
        reason = (Object.values(e.fields)[0] ?? e.key).replace("billing.errors.", "");
      } else {
        deps.log.log("error", "billing run from the page failed", { error: String(e) });
      }
      return c.redirect(`${base}${pageQuery(back, { result: "failed", reason })}`, 303);
    }
  });

  app.post("/bills/:id/delete", async (c) => {
    const t = c.var.t;
    const form = await readForm(c);
    const back = backOf(form);
    const id = idParam(c.req.param("id"));
    if (id === null) {
      return c.redirect(`${base}${pageQuery(back, { error: "bill_not_found" })}`, 303);
    }
    if (form.confirm !== "yes") {
      return confirmStep(c, back, true, {
        title: t("billing.delete_dialog.title"),
        message: t("billing.delete_dialog.message"),
        action: `${base}/bills/${id}/delete`,
        confirmLabel: t("billing.delete_dialog.confirm"),
        cancelLabel: t("billing.delete_dialog.cancel"),
        danger: true,
      });
    }
    try {
      await (mode === "units"
        ? deleteUnitBillById(acting(c, deps), id)
        : deleteCustomerBillById(acting(c, deps), id));
      return c.redirect(`${base}${pageQuery(back, { done: "deleted" })}`, 303);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      const error = e.key.replace("billing.errors.", "");
      return c.redirect(`${base}${pageQuery(back, { error })}`, 303);
    }
  });

  app.route("/", billingActionRoutes(deps, path));
  return app;
}
