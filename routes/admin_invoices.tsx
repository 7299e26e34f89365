/**
 * The admin's invoices (issue 31): `GET /admin/invoices` (filters `status`, `kind`, `month`),
 * `POST /admin/invoices/retry` (`key`), `POST /admin/invoices/cancel` (`key`, `motive`,
 * `substitution` for motive 01), `POST /admin/invoices/global` (`month`), and `GET
 * /admin/invoices/file?key=&format=pdf|xml`.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Deps, UserEnv } from "./_deps.ts";
import { renderPage } from "./_page.tsx";
import { formString, readForm } from "./_http.ts";
import { pageText, queryInput } from "./_validate.ts";
import { attempt, Refusal, refusalStatus } from "./_refusal.tsx";
import { requireRole } from "./_session.ts";
import {
  cancelInvoice,
  issueGlobalInvoices,
  listInvoices,
  retryInvoice,
} from "../services/invoices/mod.ts";
import { AdminInvoicesPage } from "../components/invoices/AdminInvoicesPage.tsx";
import { invoiceDownload, invoiceFileQuery } from "./invoice_files.ts";

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const STATUSES = ["pending", "issuing", "valid", "failed", "pending_cancellation", "canceled"];

/** Routes under /admin/invoices. */
export function adminInvoiceRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<UserEnv>();
  app.use("*", requireRole("admin"));
  const query = z.object({
    status: pageText,
    kind: pageText,
    month: pageText,
    done: pageText,
  });
  const page = async (
    c: Context<UserEnv>,
    q: { status?: string; kind?: string; month?: string },
    msg: { notice?: string; error?: string } = {},
    status: 200 | 400 | 404 | 409 | 503 = 200,
  ) => {
    const filter = {
      status: STATUSES.includes(q.status ?? "") ? q.status! : "",
      kind: ["named", "global", "owner"].includes(q.kind ?? "") ? q.kind! : "",
      month: MONTH.test(q.month ?? "") ? q.month! : "",
    };
    const invoices = await listInvoices(deps, {
      status: (filter.status || null) as never,
      kind: (filter.kind || null) as never,
      month: filter.month || null,
    });
    return renderPage(c, deps, c.var.t("invoices.title"), AdminInvoicesPage, {
      invoices,
      filter,
      ...msg,
    }, status);
  };
  const refused = (c: Context<UserEnv>, r: Refusal) =>
    page(c, {}, { error: c.var.t(r.key) }, refusalStatus(r) as 400 | 404 | 409 | 503);

  app.get("/", queryInput(query), (c) => {
    const q = c.req.valid("query");
    const notice = q.done && ["retried", "canceled_done"].includes(q.done)
      ? c.var.t(`invoices.${q.done}`)
      : undefined;
    return page(c, q, { notice });
  });
  app.get("/file", invoiceFileQuery, (c) => invoiceDownload(c, deps));
  app.post("/retry", async (c) => {
    const key = formString(await readForm(c), "key").slice(0, 200);
    const done = await attempt(retryInvoice(deps, key));
    if (done instanceof Refusal) return refused(c, done);
    return c.redirect("/admin/invoices?done=retried", 303);
  });
  app.post("/cancel", async (c) => {
    const form = await readForm(c);
    const key = formString(form, "key").slice(0, 200);
    const sub = formString(form, "substitution").trim().slice(0, 200) || null;
    const done = await attempt(cancelInvoice(deps, key, formString(form, "motive"), sub));
    if (done instanceof Refusal) return refused(c, done);
    return c.redirect("/admin/invoices?done=canceled_done", 303);
  });
  app.post("/global", async (c) => {
    const month = formString(await readForm(c), "month");
    if (!MONTH.test(month)) {
      return page(c, {}, { error: c.var.t("validation.invalid") }, 400);
    }
    await issueGlobalInvoices(deps, month);
    return c.redirect(`/admin/invoices?kind=global&month=${month}`, 303);
  });
  return app as unknown as Hono<AppEnv>;
}
