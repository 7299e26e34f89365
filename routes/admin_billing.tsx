/**
 * Admin billing pages (spec 001 sections 2, 4, 5 and 8): `/admin/units-billing` (unit bills)
 * and `/admin/stations-billing` (customer bills), each with zone/year/period pickers (a GET
 * form), a process form (`…/process`, runs `services/billing.ts`), tiles, the bills of the
 * period for the zone, and a delete per bill (`…/bills/{id}/delete`).
 *
 * Every form works without JavaScript: the process and delete forms post without
 * `confirm=yes` and get a confirmation page; with JavaScript the ConfirmSubmit island asks in
 * a dialog. Results come back on the redirected page as query flags. The /admin guard is
 * `routes/admin.tsx`'s.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { idParam, readForm } from "./_http.ts";
import { appPage } from "./_page.tsx";
import { BillingInputError, runBilling } from "../services/billing.ts";
import { listZones } from "../db/zones.ts";
import { getDevices, type StoredDevice } from "../db/devices.ts";
import { getUser } from "../db/users.ts";
import {
  deleteCustomerBill,
  deleteUnitBill,
  listCustomerBills,
  listUnitBills,
  type StoredCustomerBill,
  type StoredUnitBill,
} from "../db/bills.ts";
import { isPeriod, parsePeriod } from "../core/periods.ts";
import { localParts } from "../core/local_time.ts";
import {
  centsText,
  firstWord,
  kwhText,
  pageQuery,
  periodLabel,
  type Pickers,
  resolvePickers,
  unitBillStatus,
  yearOfPeriod,
  type ZoneChoice,
} from "../components/billing/model.ts";
import { BillingConfirmPage, type ProcessResult } from "../components/billing/BillingControls.tsx";
import { BillingPage } from "../components/billing/BillingPage.tsx";
import { paymentText, type UnitBillRow, UnitBills } from "../components/billing/UnitBills.tsx";
import { type StationBillRow, StationBills } from "../components/billing/StationBills.tsx";

type Mode = "units" | "stations";
const BASE: Record<Mode, string> = {
  units: "/admin/units-billing",
  stations: "/admin/stations-billing",
};
const FAIL_REASONS = ["invalid_period", "invalid_zone", "zone_not_found"];
const DELETE_ERRORS: Record<string, string> = {
  bill_finalized: "billing.errors.bill_finalized",
  bill_not_found: "billing.errors.bill_not_found",
};

const periodOf = (b: { billing_month: string | null; billing_period: string | null }) =>
  b.billing_month ?? b.billing_period ?? "";

/** A non-negative integer query value, or 0. */
const count = (v: string | undefined) => (/^\d{1,9}$/.test(v ?? "") ? Number(v) : 0);

async function zoneChoices(deps: Deps): Promise<ZoneChoice[]> {
  const zones = await listZones(deps.kv);
  return zones.map((z) => ({ id: z.id, name: z.name, billing_type: z.billing_type }));
}

async function namesOf(deps: Deps, ids: Iterable<number>): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const id of new Set(ids)) {
    const u = await getUser(deps.kv, id);
    if (u) out.set(id, u.full_name);
  }
  return out;
}

async function stationsOf(deps: Deps, ids: Iterable<number>): Promise<Map<number, StoredDevice>> {
  const devices = await getDevices(deps.kv, [...new Set(ids)]);
  return new Map(devices.map((d) => [d.id, d]));
}

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

function backFields(p: Pickers): Record<string, string> {
  return p.zone
    ? { zone_id: String(p.zone.id), year: String(p.year), period: p.period }
    : { year: String(p.year), period: p.period };
}

/** The result of a run read back from the redirect's flags. */
function resultOf(c: Context<AppEnv>, period: string): ProcessResult | null {
  const q = c.req.query();
  const t = c.var.t;
  if (q.result === "ok") {
    return {
      ok: true,
      period,
      created: count(q.created),
      updated: count(q.updated),
      stations: count(q.stations),
      failures: count(q.failures),
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

/** Routes of both billing pages. */
export function adminBillingRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  for (const mode of ["units", "stations"] as Mode[]) {
    const base = BASE[mode];
    const section = mode === "units" ? "unit_billing" : "station_billing";

    app.get(base, async (c) => {
      const t = c.var.t;
      const q = c.req.query();
      const today = localParts(deps.now(), deps.config.utcOffsetMinutes);
      let zones: ZoneChoice[] = [];
      let loadError: string | null = null;
      try {
        zones = await zoneChoices(deps);
      } catch (e) {
        deps.log.log("error", "billing zones failed", { error: String(e) });
        loadError = t("billing.errors.load_zones");
      }
      let unitBills: StoredUnitBill[] | null = null;
      let customerBills: StoredCustomerBill[] | null = null;
      try {
        if (mode === "units") unitBills = await listUnitBills(deps.kv);
        else customerBills = await listCustomerBills(deps.kv);
      } catch (e) {
        deps.log.log("error", "billing list failed", { error: String(e) });
      }
      const all: (StoredUnitBill | StoredCustomerBill)[] = unitBills ?? customerBills ?? [];
      const pickers = resolvePickers(
        zones,
        { zone_id: q.zone_id, year: q.year, period: q.period },
        (z) =>
          all.filter((b) => b.zone_id === z.id).map((b) => yearOfPeriod(periodOf(b)))
            .filter((y): y is number => y !== null),
        today,
      );
      const zoneId = pickers.zone?.id ?? null;
      const ofPeriod = <B extends StoredUnitBill | StoredCustomerBill>(bills: B[]) =>
        bills.filter((b) => b.zone_id === zoneId && periodOf(b) === pickers.period);
      const back = backFields(pickers);
      let list = null;
      let total = 0;
      let finalized = 0;
      const current = (() => {
        try {
          const p = parsePeriod(pickers.period);
          return p.year === today.year && p.months.includes(today.month);
        } catch {
          return false;
        }
      })();
      if (unitBills) {
        const bills = ofPeriod(unitBills);
        const stations = await stationsOf(deps, bills.map((b) => b.station_id));
        const tenants = await namesOf(
          deps,
          bills.map((b) => b.tenant_id).filter((x): x is number => x !== null),
        );
        const rows: UnitBillRow[] = bills.map((b) => {
          const st = stations.get(b.station_id);
          const unit = st?.config.station?.units.find((u) => u.id === b.unit_id);
          return {
            id: b.id,
            station_id: b.station_id,
            station: st?.name ?? `#${b.station_id}`,
            unit_id: b.unit_id,
            unit: unit?.name ?? b.unit_id,
            tenant: b.tenant_id === null ? null : firstWord(tenants.get(b.tenant_id)),
            energy: kwhText(b.energy_consumption),
            total: centsText(b.total_cost, b.currency),
            status: unitBillStatus(b, current),
            payment: paymentText(t, b.payment_status),
          };
        });
        total = bills.length;
        finalized = bills.filter((b) => b.is_finalized).length;
        list = <UnitBills t={t} rows={rows} back={back} />;
      } else if (customerBills) {
        const bills = ofPeriod(customerBills);
        const stations = await stationsOf(deps, bills.map((b) => b.station_id));
        const customers = await namesOf(
          deps,
          bills.map((b) => b.customer_id).filter((x): x is number => x !== null),
        );
        const rows: StationBillRow[] = bills.map((b) => ({
          id: b.id,
          station_id: b.station_id,
          kind: b.billing_month ? "monthly" : "bimonthly",
          period: periodLabel(t, periodOf(b)),
          station: stations.get(b.station_id)?.name ?? `#${b.station_id}`,
          customer: b.customer_id === null ? null : firstWord(customers.get(b.customer_id)),
          energy: kwhText(b.energy_consumption),
          commission: centsText(b.commission_amount, b.currency),
          fee: centsText(b.fee_amount, b.currency),
          tax: centsText(b.tax_amount, b.currency),
          total: centsText(b.total_amount, b.currency),
          finalized: b.is_finalized,
        }));
        total = bills.length;
        finalized = bills.filter((b) => b.is_finalized).length;
        list = <StationBills t={t} rows={rows} back={back} />;
      }
      const result = resultOf(c, pickers.period);
      const deleteError = DELETE_ERRORS[q.error ?? ""];
      return appPage(
        c,
        deps,
        t(`billing.${section}.title`),
        <BillingPage
          t={t}
          mode={mode}
          pickers={pickers}
          result={result}
          notice={q.done === "deleted" ? t("billing.messages.bill_deleted") : null}
          error={loadError ?? (deleteError ? t(deleteError) : null)}
          noUnitBills={mode === "stations" && result?.ok === true &&
            result.created + result.updated === 0}
          total={total}
          finalized={finalized}
          list={list}
        />,
      );
    });

    app.post(`${base}/process`, async (c) => {
      const t = c.var.t;
      const form = await readForm(c);
      const back = backOf(form);
      const D = (k: string, p?: Record<string, string | number>) =>
        t(`billing.process.confirm_dialog.${k}`, p);
      if (form.confirm !== "yes") {
        const zones = await zoneChoices(deps).catch(() => []);
        const zone = zones.find((z) => z.id === back.zone_id);
        const fields: Record<string, string> = {};
        if (back.zone_id) fields.zone_id = String(back.zone_id);
        if (back.period) fields.period = back.period;
        return appPage(
          c,
          deps,
          D("title"),
          <BillingConfirmPage
            title={D("title")}
            message={`${
              D("message", {
                zone: zone?.name ?? String(back.zone_id ?? "-"),
                period: back.period ? periodLabel(t, back.period) : "-",
              })
            } ${D("warning")}`}
            action={`${base}/process`}
            fields={fields}
            confirmLabel={D("confirm")}
            cancelLabel={D("cancel")}
            cancelHref={`${base}${pageQuery(back)}`}
          />,
        );
      }
      try {
        const res = await runBilling(deps, form.zone_id, form.period, {
          author: c.var.user!.email,
        });
        const units = mode === "units";
        return c.redirect(
          `${base}${
            pageQuery(back, {
              result: "ok",
              created: units ? res.total_bills_created : res.customer_bills_created,
              updated: units ? res.total_bills_updated : res.customer_bills_updated,
              stations: res.stations_processed,
              failures: res.failures.length,
            })
          }`,
          303,
        );
      } catch (e) {
        let reason = "server";
        if (e instanceof BillingInputError) {
          reason = e.key.replace("billing.errors.", "");
        } else {
          deps.log.log("error", "billing run from the page failed", { error: String(e) });
        }
        return c.redirect(`${base}${pageQuery(back, { result: "failed", reason })}`, 303);
      }
    });

    app.post(`${base}/bills/:id/delete`, async (c) => {
      const t = c.var.t;
      const form = await readForm(c);
      const back = backOf(form);
      const id = idParam(c.req.param("id"));
      if (id === null) {
        return c.redirect(`${base}${pageQuery(back, { error: "bill_not_found" })}`, 303);
      }
      if (form.confirm !== "yes") {
        const fields: Record<string, string> = {};
        if (back.zone_id) fields.zone_id = String(back.zone_id);
        if (back.year) fields.year = String(back.year);
        if (back.period) fields.period = back.period;
        return appPage(
          c,
          deps,
          t("billing.delete_dialog.title"),
          <BillingConfirmPage
            title={t("billing.delete_dialog.title")}
            message={t("billing.delete_dialog.message")}
            action={`${base}/bills/${id}/delete`}
            fields={fields}
            confirmLabel={t("billing.delete_dialog.confirm")}
            cancelLabel={t("billing.delete_dialog.cancel")}
            cancelHref={`${base}${pageQuery(back)}`}
            danger
          />,
        );
      }
      const res = mode === "units"
        ? await deleteUnitBill(deps.kv, id)
        : await deleteCustomerBill(deps.kv, id);
      const flag: Record<string, string> = res === "deleted"
        ? { done: "deleted" }
        : { error: res === "finalized" ? "bill_finalized" : "bill_not_found" };
      return c.redirect(`${base}${pageQuery(back, flag)}`, 303);
    });
  }
  return app;
}
