/**
 * Admin report pages (spec 001 section 2): the station report (`/admin/report/station/{id}`,
 * `?period=&unit=`), the unit report (`/admin/report/station/{id}/unit/{unitId}`,
 * `?year=&period=|month=`), its recalculation form
 * (`POST …/unit/{unitId}/recalculate`, `services/billing/`) and the PDF download for
 * links (`GET /admin/report/station/{id}/pdf?type=unit|customer&period=&unit=&language=`,
 * `services/reports/`). Everything works without JavaScript. The /admin guard is
 * `routes/admin.tsx`'s.
 */
import { acting } from "./_audit.ts";
import { Hono } from "hono";
import type { Context } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { idParam, readForm } from "./_http.ts";
import { renderPage } from "./_page.tsx";
import { pdfResponse } from "./api/reports.ts";
import { parsePeriod, periodLabel } from "../core/periods.ts";
import {
  generateReport,
  type PeriodRow,
  type StationContext,
  stationContext,
  stationReport,
  unitBillOf,
  unitReport,
} from "../services/reports/mod.ts";
import { cityOf, currentPeriod, stationPeriods, zoneOfBill } from "../core/reports.ts";
import { RECALC_ERRORS, RECALC_METHODS, recalculateBill } from "../services/billing/mod.ts";
import { invalid, Refusal } from "../services/refusal.ts";
import { checked, queryOf, textQuery } from "./_validate.ts";
import { recalcSchema } from "../core/billing_input.ts";
import { reportRequestSchema } from "../core/report_request.ts";
import { CONSUMPTION_ERRORS, parseConsumptionInput } from "../core/consumption_input.ts";
import { StationNotFound } from "../components/devices/StationData.tsx";
import { StationReport } from "../components/reports/StationReport.tsx";
import { type RecalcAttempt, UnitReport } from "../components/reports/UnitReport.tsx";
import { UnitNotFound } from "../components/reports/UnitNotFound.tsx";
import { ReportErrorState } from "../components/reports/ReportError.tsx";
import type { RecalcFormProps } from "../islands/RecalcForm.tsx";
import type { Translate } from "../services/platform/i18n.ts";
import { clockOf } from "../services/platform/clock.ts";

type Ctx = Context<UserEnv>;
const UNIT_ID = /^[\w.-]{1,64}$/;
const CONSUMPTION_KEYS: string[] = Object.values(CONSUMPTION_ERRORS);

function today(deps: Deps) {
  return clockOf(deps).today();
}

/** The period of `text` when it is one of `kind`, else null. */
function periodOf(text: string | undefined, kind: "monthly" | "bimonthly"): string | null {
  try {
    const p = parsePeriod(text);
    return p.kind === kind ? p.text : null;
  } catch {
    return null;
  }
}

const str = (form: Record<string, string | string[]>, k: string) =>
  typeof form[k] === "string" ? (form[k] as string) : "";

/** The recalculation form props of a period row. */
function recalcProps(
  t: Translate,
  action: string,
  year: number,
  row: PeriodRow,
  attempt: RecalcAttempt | null,
): RecalcFormProps {
  const m = (k: string) => t(`billing.recalculation.methods.${k}.name`);
  return {
    action,
    fields: { bill_id: String(row.bill?.id ?? ""), period: row.period, year: String(year) },
    methods: RECALC_METHODS.map((value) => ({
      value,
      name: m(value),
      description: t(`billing.recalculation.methods.${value}.description`),
      reason: t(`billing.recalculation.reasons.${value}`, { kwh: "{{kwh}}" }),
    })),
    method: attempt?.method ?? "",
    consumption: attempt?.consumption ?? "",
    reason: attempt?.reason ?? "",
    errors: attempt?.errors ?? {},
    consumptionErrors: Object.fromEntries(CONSUMPTION_KEYS.map((k) => [k, t(k)])),
    labels: {
      method: t("billing.recalculation.method_label"),
      consumption: t("billing.recalculation.consumption_label"),
      placeholder: t("billing.recalculation.consumption_placeholder"),
      hint: t("billing.recalculation.consumption_hint"),
      reason: t("billing.recalculation.reason_label"),
      submit: t("billing.recalculation.recalculate"),
      submitting: t("billing.recalculation.recalculating"),
      invalidInput: t("billing.recalculation.validation.invalid_input", { error: "{{error}}" }),
    },
  };
}

/** Routes under /admin/report, mounted at that prefix. */
export function adminReportRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();

  const stationMissing = (c: Ctx) =>
    renderPage(
      c,
      deps,
      c.var.t("devices.sensor_form.station_not_found_title"),
      StationNotFound,
      {},
      404,
    );

  const context = async (c: Ctx): Promise<StationContext | null> => {
    const id = idParam(c.req.param("id"));
    return id === null ? null : await stationContext(deps, id);
  };

  app.get("/station/:id", async (c) => {
    const t = c.var.t;
    const flags = queryOf(c, textQuery);
    const ctx = await context(c);
    if (!ctx) return stationMissing(c);
    const day = today(deps);
    const periods = stationPeriods(ctx.kind, day);
    const asked = flags.period;
    const period = asked && periods.includes(asked) ? asked : currentPeriod(ctx.kind, day);
    let data;
    try {
      data = await stationReport(deps, ctx, period);
    } catch (e) {
      deps.log.log("error", "station report failed", { station: ctx.station.id, error: String(e) });
      return renderPage(c, deps, t("reports.station_report.title"), ReportErrorState, {
        title: t("reports.station_report.errors.load_failed"),
        message: e instanceof Error ? e.message : String(e),
        back: { href: "/admin/devices", label: t("reports.station_report.errors.go_back") },
        retry: c.req.url,
      }, 500);
    }
    const unit = flags.unit;
    const selected = data.bills.find((b) => b.unit_id === unit) ?? data.bills[0] ?? null;
    return renderPage(c, deps, t("reports.station_report.title"), StationReport, {
      station: ctx.station,
      city: cityOf(t, ctx.station.location),
      zoneName: ctx.zone?.name ?? null,
      kind: ctx.kind,
      periods,
      data,
      selected,
      error: flags.report_error ? t("reports.station_report.errors.generate_failed") : null,
    });
  });

  /** Renders the unit report; `attempt` reopens a failed recalculation. */
  const unitPage = async (
    c: Ctx,
    ctx: StationContext,
    unitId: string,
    opts: {
      year?: string;
      expanded?: string | null;
      attempt?: RecalcAttempt | null;
      error?: string | null;
      notice?: string | null;
      status?: 200 | 400 | 404;
    },
  ) => {
    const t = c.var.t;
    const day = today(deps);
    const years = [day.year, day.year - 1, day.year - 2];
    const expanded = opts.expanded ?? null;
    const askedYear = /^\d{4}$/.test(opts.year ?? "") ? Number(opts.year) : null;
    const expandedYear = expanded ? parsePeriod(expanded).year : null;
    const year = askedYear !== null && years.includes(askedYear)
      ? askedYear
      : expandedYear !== null && years.includes(expandedYear)
      ? expandedYear
      : day.year;
    let data;
    try {
      data = UNIT_ID.test(unitId) ? await unitReport(deps, ctx, unitId, year, day) : null;
    } catch (e) {
      deps.log.log("error", "unit report failed", { station: ctx.station.id, error: String(e) });
      return renderPage(c, deps, t("reports.unit_report.error_title"), ReportErrorState, {
        title: t("reports.unit_report.error_title"),
        message: t("reports.unit_report.errors.fetch_failed", {
          message: e instanceof Error ? e.message : String(e),
        }),
        back: {
          href: `/admin/report/station/${ctx.station.id}`,
          label: t("reports.unit_report.back_to_station"),
        },
      }, 500);
    }
    if (!data) {
      return renderPage(c, deps, t("reports.unit_report.not_found_title"), UnitNotFound, {
        stationId: ctx.station.id,
      }, 404);
    }
    const withBill =
      [...data.rows].reverse().find((r) =>
        r.bill && (expanded === null || r.period === expanded)
      ) ?? [...data.rows].reverse().find((r) => r.bill);
    const zone = zoneOfBill(withBill?.bill?.zone_snapshot, ctx.zone);
    const base = `/admin/report/station/${ctx.station.id}/unit/${encodeURIComponent(unitId)}`;
    return renderPage(
      c,
      deps,
      t("reports.unit_report.title", {
        unit: data.unit.name || data.unit.id,
        type: t(`reports.unit_report.${ctx.kind}`),
      }),
      UnitReport,
      {
        stationId: ctx.station.id,
        stationName: ctx.station.name,
        city: cityOf(t, ctx.station.location),
        unit: { id: data.unit.id, name: data.unit.name || data.unit.id },
        tenant: data.tenant,
        kind: ctx.kind,
        zone,
        year,
        years,
        rows: data.rows,
        expanded,
        notice: opts.notice ?? null,
        error: opts.error ?? null,
        attempt: opts.attempt ?? null,
        recalcForm: (row, attempt) => recalcProps(t, `${base}/recalculate`, year, row, attempt),
      },
      opts.status ?? 200,
    );
  };

  app.get("/station/:id/unit/:unitId", async (c) => {
    const t = c.var.t;
    const ctx = await context(c);
    if (!ctx) return stationMissing(c);
    const q = queryOf(c, textQuery);
    const expanded = periodOf(q.period ?? q.month, ctx.kind);
    let notice: string | null = null;
    const method = RECALC_METHODS.find((m) => m === q.method);
    if (q.done === "recalculated" && expanded && method) {
      notice = t("reports.unit_report.recalculate_success", {
        period: periodLabel(t, expanded),
        method: t(`billing.recalculation.methods.${method}.name`),
      });
    }
    return unitPage(c, ctx, c.req.param("unitId"), {
      year: q.year,
      expanded,
      notice,
      error: q.report_error ? t("reports.unit_report.errors.generate_failed") : null,
    });
  });

  app.post("/station/:id/unit/:unitId/recalculate", async (c) => {
    const t = c.var.t;
    const ctx = await context(c);
    if (!ctx) return stationMissing(c);
    const unitId = c.req.param("unitId");
    const form = await readForm(c);
    const period = periodOf(str(form, "period"), ctx.kind);
    const method = str(form, "recalculation_method");
    const consumption = str(form, "energy_consumption").slice(0, 64);
    let reason = str(form, "override_reason").trim().slice(0, 2000);
    const attempt: RecalcAttempt = {
      period: period ?? "",
      method,
      consumption,
      reason,
      errors: {},
    };
    const failed = (message: string, status: 400 | 404 = 400) =>
      unitPage(c, ctx, unitId, {
        year: str(form, "year"),
        expanded: period,
        error: t("reports.unit_report.errors.recalculate_failed", { message }),
        attempt: period ? attempt : null,
        status,
      });
    const bill = period && UNIT_ID.test(unitId)
      ? await unitBillOf(deps, ctx.station.id, period, unitId)
      : null;
    if (!period || !bill || String(bill.id) !== str(form, "bill_id")) {
      return failed(t("billing.errors.bill_not_found"), 404);
    }
    if (!RECALC_METHODS.includes(method as never)) {
      attempt.errors.recalculation_method = t("reports.unit_report.recalc.select_method");
      return failed(attempt.errors.recalculation_method);
    }
    if (reason === "") {
      const parsed = parseConsumptionInput(consumption);
      reason = t(`billing.recalculation.reasons.${method}`, {
        kwh: parsed.ok ? String(parsed.kwh) : consumption.trim(),
      });
    }
    try {
      const user = c.var.user;
      const req = checked(recalcSchema, {
        override_reason: reason,
        recalculation_method: method,
        energy_consumption: method === "manual_input" ? consumption : undefined,
      });
      await recalculateBill(acting(c, deps), bill.id, ctx.kind, req, {
        id: user.id,
        email: user.email,
      });
    } catch (e) {
      if (!(e instanceof Refusal)) {
        deps.log.log("error", "recalculation failed", { bill: bill.id, error: String(e) });
        return failed(e instanceof Error ? e.message : String(e));
      }
      for (const [field, key] of Object.entries(e.fields)) {
        attempt.errors[field] = CONSUMPTION_KEYS.includes(key)
          ? t("billing.recalculation.validation.invalid_input", { error: t(key) })
          : key === RECALC_ERRORS.methodRequired
          ? t("reports.unit_report.recalc.select_method")
          : t(key);
      }
      const message = attempt.errors[Object.keys(e.fields)[0]] ?? t(e.key);
      return failed(message, e.kind === "not_found" ? 404 : 400);
    }
    const q = new URLSearchParams({ period, done: "recalculated", method });
    return c.redirect(
      `/admin/report/station/${ctx.station.id}/unit/${encodeURIComponent(unitId)}?${q}`,
      303,
    );
  });

  app.get("/station/:id/pdf", async (c) => {
    const q = queryOf(c, textQuery);
    const id = idParam(c.req.param("id"));
    const unit = q.unit && UNIT_ID.test(q.unit) ? q.unit : null;
    const bimonthly = /^\d{4}-\d{2}-\d{2}$/.test(q.period ?? "");
    const type = q.type === "customer"
      ? bimonthly ? "bimester_customer" : "customer"
      : bimonthly
      ? "bimester"
      : "monthly";
    try {
      if (id === null || (q.type !== "unit" && q.type !== "customer")) {
        throw invalid({}, "reports.errors.invalid_body");
      }
      const req = checked(reportRequestSchema, {
        reportType: type,
        stationId: id,
        unitId: q.type === "unit" ? q.unit : undefined,
        [bimonthly ? "period" : "month"]: q.period,
        language: q.language,
      });
      const language = req.language ?? c.var.lang;
      return pdfResponse(await generateReport(deps, c.var.user, { ...req, language }));
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      if (id === null) return stationMissing(c);
      const back = new URLSearchParams({ report_error: "1" });
      if (q.period && /^[\d-]{7,10}$/.test(q.period)) back.set("period", q.period);
      const path = q.type === "unit" && unit
        ? `/admin/report/station/${id}/unit/${encodeURIComponent(unit)}`
        : `/admin/report/station/${id}`;
      return c.redirect(`${path}?${back}`, 303);
    }
  });

  return app;
}
