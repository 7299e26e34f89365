/**
 * The admin's payments page (issue 12): `GET /admin/payments` (reconciliation; the charges
 * paged and searched with the list query of `core/paging.ts`) and, in test
 * mode, `POST /admin/payments/simulate` (form field `bill`) that simulates the tenant's transfer
 * through the sandbox and comes back to the page.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Deps, UserEnv } from "./_deps.ts";
import { renderPage } from "./_page.tsx";
import { formString, readForm } from "./_http.ts";
import { formChecked, pageText, queryInput, queryOf } from "./_validate.ts";
import { attempt, Refusal } from "./_refusal.tsx";
import { requireRole } from "./_session.ts";
import {
  CHARGE_SORTS,
  paymentsOverview,
  paymentsTestMode,
  simulateTransfer,
} from "../services/payments/mod.ts";
import { listHref, listQuerySchema, parseListQuery } from "../core/paging.ts";
import type { Paging } from "../components/kit/mod.ts";
import { AdminPaymentsPage } from "../components/payments/AdminPaymentsPage.tsx";
import { clockOf } from "../services/platform/clock.ts";

const billForm = z.object({ bill: z.string().regex(/^\d{1,12}$/) });

/** Routes under /admin/payments. */
export function adminPaymentRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<UserEnv>();
  app.use("*", requireRole("admin"));

  const page = async (c: Context<UserEnv>, msg: {
    notice?: string;
    error?: string;
  }) => {
    const query = c.req.method === "GET"
      ? queryOf(c, listQuerySchema(CHARGE_SORTS))
      : parseListQuery(CHARGE_SORTS, {});
    const data = await paymentsOverview(deps, query);
    const paging: Paging = {
      query: { ...query, page: data.charges.page },
      page: data.charges,
      href: (to) => listHref("/admin/payments", to, { sort: CHARGE_SORTS[0] }),
    };
    return renderPage(c, deps, c.var.t("payments.admin.title"), AdminPaymentsPage, {
      data,
      paging,
      testMode: paymentsTestMode(deps),
      offsetMinutes: clockOf(deps).offsetMinutes(),
      ...msg,
    });
  };

  app.get("/", queryInput(z.object({ simulated: pageText })), (c) => {
    const simulated = c.req.valid("query").simulated;
    return page(c, simulated ? { notice: c.var.t("payments.admin.simulated") } : {});
  });

  app.post("/simulate", async (c) => {
    const q = formChecked(billForm, { bill: formString(await readForm(c), "bill") });
    if (q instanceof Refusal) return page(c, { error: c.var.t("payments.errors.not_found") });
    const done = await attempt(simulateTransfer(deps, Number(q.bill)));
    if (done instanceof Refusal) return page(c, { error: c.var.t(done.key) });
    return c.redirect("/admin/payments?simulated=1", 303);
  });
  return app as unknown as Hono<AppEnv>;
}
