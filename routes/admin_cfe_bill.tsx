/**
 * The station's CFE bill for the admin (issue 34): `GET /admin/devices/station/{id}/cfe-bill`
 * shows its CFE bills against the tenants' bills and the form entering one (with its PDF),
 * `POST` saves it (bad input: the page again, 400, nothing changed), and
 * `GET …/cfe-bill.pdf?period=` downloads a bill's PDF.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import type { Deps, UserEnv } from "./_deps.ts";
import { requireRole } from "./_session.ts";
import { renderPage } from "./_page.tsx";
import { flashQuery, queryOf } from "./_validate.ts";
import { idParam } from "./_http.ts";
import { cfeBillPdfResponse, type CfeBillPosted, postCfeBill } from "./_cfe_bill.ts";
import { reconciliations, type StationReconciliation } from "../services/owner/cfe_bills.ts";
import { periodOptions } from "../core/periods.ts";
import { clockOf } from "../services/platform/clock.ts";
import { FormHead } from "../components/kit/mod.ts";
import type { Translate } from "../services/platform/i18n.ts";
import {
  CfeBillForm,
  type CfeBillFormProps,
  CfeReconciliation,
} from "../components/owner/CfeBill.tsx";
import { notFound } from "../services/refusal.ts";

/** Props of the page. */
interface AdminCfeBillProps {
  t: Translate;
  station: StationReconciliation;
  form: Omit<CfeBillFormProps, "t">;
  saved: boolean;
}

function AdminCfeBillPage({ t, station, form, saved }: AdminCfeBillProps) {
  const back = `/admin/devices/station/${station.station_id}/data`;
  return (
    <>
      <FormHead
        title={t("cfe_bill.admin.title", { station: station.station_name })}
        subtitle={t("cfe_bill.reconciliation.section")}
        back={back}
        backLabel={t("cfe_bill.admin.back")}
      />
      {saved && (
        <p className="alert alert-success" role="status" data-testid="cfe-saved">
          {t("cfe_bill.form.saved")}
        </p>
      )}
      <CfeReconciliation
        t={t}
        station={station}
        pdfHref={(period) =>
          `/admin/devices/station/${station.station_id}/cfe-bill.pdf?period=${period}`}
      />
      <CfeBillForm t={t} {...form} />
    </>
  );
}

const pdfQuery = z.object({ period: z.string({ error: "validation.required" }) });

/** The routes, mounted at `/admin/devices/station`. */
export function adminCfeBillRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("admin"));

  const stationOf = (c: Context<UserEnv>) => {
    const id = idParam(c.req.param("id"));
    if (id === null) throw notFound("devices.sensor_form.errors.station_not_found");
    return id;
  };

  const page = async (
    c: Context<UserEnv>,
    id: number,
    posted: Extract<CfeBillPosted, { ok: false }> | null,
  ) => {
    const [station] = await reconciliations(deps, c.var.user, id);
    const today = clockOf(deps).today();
    const kind = station.billing_type;
    const periods = [
      ...periodOptions(kind, today.year, today),
      ...periodOptions(kind, today.year - 1),
    ];
    const flash = posted ? { done: undefined } : queryOf(c, flashQuery);
    return renderPage(
      c,
      deps,
      c.var.t("cfe_bill.admin.title", { station: station.station_name }),
      AdminCfeBillPage,
      {
        station,
        saved: flash.done === "cfe_bill_saved",
        form: {
          action: `/admin/devices/station/${id}/cfe-bill`,
          stations: [{ id, name: station.station_name, has_master: station.has_master }],
          periods,
          values: posted?.values ??
            { station: String(id), period: periods[1] ?? periods[0], kwh: "", kw: "", amount: "" },
          errors: posted?.errors ?? {},
          error: posted?.error,
        },
      },
      posted?.status ?? 200,
    );
  };

  app.get("/:id/cfe-bill", (c) => page(c, stationOf(c), null));
  app.post("/:id/cfe-bill", async (c) => {
    const id = stationOf(c);
    const res = await postCfeBill(c, deps, id);
    if (!res.ok) {
      if (res.status === 404) throw notFound("devices.sensor_form.errors.station_not_found");
      return page(c, id, res);
    }
    return c.redirect(`/admin/devices/station/${id}/cfe-bill?done=cfe_bill_saved`, 303);
  });
  app.get("/:id/cfe-bill.pdf", (c) => {
    const q = queryOf(c, pdfQuery);
    return cfeBillPdfResponse(c, deps, stationOf(c), q.period);
  });
  return app;
}
