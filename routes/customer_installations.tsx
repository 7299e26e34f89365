/**
 * An owner's installations (spec 001 section 2), mounted at `/customer/installations` behind
 * the customer guard: `/{id}?month=` (the installation), `/{id}/invoice?month=&language=` (the
 * invoice PDF; a month without a finalized bill comes back to the page with the download error)
 * and `/{installationId}/unit/{unitId}` (a unit; `unitId` is its meter's id). The installation
 * shows its open alerts, read only (where the bell's alerts lead an owner). Another owner's
 * station or unit is not found.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import type { Deps, UserEnv } from "./_deps.ts";
import { renderPage } from "./_page.tsx";
import { idParam } from "./_http.ts";
import { queryOf } from "./_validate.ts";
import { locationText } from "./_devices.tsx";
import { pdfResponse } from "./api/reports.ts";
import { invalid, Refusal, storageRefusal } from "../services/refusal.ts";
import { monthChoices } from "../core/owner_rules.ts";
import { installation, INVOICE_LANGUAGES, ownerInvoice, ownerUnit } from "../services/owner/mod.ts";
import { REPORT_ERRORS } from "../services/reports/mod.ts";
import { InstallationPage, OwnerError } from "../components/owner/InstallationPage.tsx";
import { OwnerUnitPage } from "../components/owner/OwnerUnitPage.tsx";
import { clockOf } from "../services/platform/clock.ts";
import { withOpenAlerts } from "../components/alerts/OpenAlerts.tsx";
import { openAlertsView } from "../services/alerts/mod.ts";

/** The installation with its open alerts under it, read only (issue 30). */
const InstallationWithAlerts = withOpenAlerts(InstallationPage, false);

type Ctx = Context<UserEnv>;

/** The installation routes (guarded by `customerRoutes`). */
export function customerInstallationRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  const months = () => monthChoices(clockOf(deps).today());
  const monthQuery = () =>
    z.object({
      month: z.enum(months() as [string, ...string[]], { error: "validation.invalid" })
        .optional(),
      invoice_error: z.literal("1").optional(),
    });
  const invoiceQuery = () =>
    z.object({
      month: z.enum(months() as [string, ...string[]], { error: "validation.invalid" }),
      language: z.enum(INVOICE_LANGUAGES, { error: "reports.errors.invalid_language" }),
    });

  /**
   * The error screen: 404 for a refusal (missing or not theirs), 503 otherwise; a storage
   * failure goes to the app's refusal page (data unavailable).
   */
  const failed = (c: Ctx, e: unknown, title: string, message: string, back: string) => {
    // A failing readings store is said as such (503, data unavailable), never as zeros.
    const storage = storageRefusal(e);
    if (storage) throw storage;
    if (!(e instanceof Refusal)) deps.log.log("error", "owner page failed", { error: String(e) });
    const url = new URL(c.req.url);
    return renderPage(c, deps, title, OwnerError, {
      title,
      message,
      back,
      retry: url.pathname + url.search,
    }, e instanceof Refusal ? 404 : 503);
  };

  app.get("/:id", async (c) => {
    const t = c.var.t;
    const q = queryOf(c, monthQuery());
    const id = idParam(c.req.param("id"));
    const month = q.month ?? months()[0];
    const E = (k: string, p?: Record<string, string>) =>
      t(`customer.installation_detail.errors.${k}`, p);
    try {
      if (id === null) throw invalid({});
      const data = await installation(deps, c.var.user, id, month);
      const openAlerts = await openAlertsView(
        deps,
        c.var.user,
        c.var.lang,
        { station_id: id },
        c.req.path,
      );
      return renderPage(c, deps, data.station.name, InstallationWithAlerts, {
        openAlerts,
        data,
        address: locationText(t, data.station.location),
        months: months(),
        invoiceError: q.invoice_error === "1",
        lang: c.var.lang,
      });
    } catch (e) {
      const message = e instanceof Refusal
        ? E("could_not_load")
        : E("fetch_error", { message: String(e) });
      return failed(c, e, E("title"), message, "/customer");
    }
  });

  app.get("/:id/invoice", async (c) => {
    const q = queryOf(c, invoiceQuery());
    const id = idParam(c.req.param("id"));
    if (id === null) throw invalid({ id: "validation.invalid" });
    try {
      const { month, language } = q;
      return pdfResponse(await ownerInvoice(deps, c.var.user, id, month, language));
    } catch (e) {
      if (e instanceof Refusal && e.key === REPORT_ERRORS.noCustomerBill) {
        return c.redirect(`/customer/installations/${id}?month=${q.month}&invoice_error=1`);
      }
      throw e;
    }
  });

  app.get("/:installationId/unit/:unitId", async (c) => {
    const t = c.var.t;
    const U = (k: string, p?: Record<string, string>) => t(`customer.unit_detail.errors.${k}`, p);
    const stationId = idParam(c.req.param("installationId"));
    const sensorId = idParam(c.req.param("unitId"));
    if (stationId === null || sensorId === null) {
      return failed(c, invalid({}), U("title"), U("missing_info"), "/customer");
    }
    const q = queryOf(c, monthQuery());
    try {
      const d = await ownerUnit(deps, c.var.user, stationId, sensorId, q.month);
      return renderPage(c, deps, d.name, OwnerUnitPage, {
        d,
        offset: clockOf(deps).offsetMinutes(),
      });
    } catch (e) {
      const message = e instanceof Refusal
        ? U("failed_unit_data")
        : U("error_loading", { message: String(e) });
      return failed(c, e, U("title"), message, `/customer/installations/${stationId}`);
    }
  });
  return app;
}
