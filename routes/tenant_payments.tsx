/**
 * The tenant's payment pages (spec 001 section 2): `/user/payments`, the payment form
 * `/user/payment?bill=…` and `/user/payment/success?bill=…` (the spec's navigation state is the
 * bill in the URL), and `POST /user/payment/generate` (form field `bill`) that generates the
 * reference and shows the success page, or the form again with the message; in test mode
 * `/user/payment/receipt?bill=…`, the SPEI receipt PDF when no processor dashboard serves it.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { Deps, UserEnv } from "./_deps.ts";
import { renderPage } from "./_page.tsx";
import { formString, readForm } from "./_http.ts";
import { formChecked, pageText, queryInput } from "./_validate.ts";
import { attempt, Refusal, refusalStatus } from "./_refusal.tsx";
import {
  PAYMENT_ERRORS,
  paymentsSummary,
  paymentsTestMode,
  referenceFor,
  speiReceipt,
  tenantPayment,
} from "../services/payments/mod.ts";
import { PaymentsPage } from "../components/payments/PaymentsPage.tsx";
import { PaymentError, PaymentForm } from "../components/payments/PaymentForm.tsx";
import { clockOf } from "../services/platform/clock.ts";
import { notFound } from "../services/refusal.ts";

const billQuery = z.object({ bill: z.string().regex(/^\d{1,12}$/) });

/** Routes of the tenant's payment pages. */
export function tenantPaymentRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();

  app.get("/payments", async (c) => {
    const clock = clockOf(deps);
    const now = clock.now();
    const t = c.var.t;
    let summary;
    try {
      summary = await paymentsSummary(deps, c.var.user);
    } catch (e) {
      deps.log.log("error", "payments list failed", { error: String(e) });
      return renderPage(c, deps, t("payments.payments_page.title"), PaymentError, {
        title: t("payments.errors.error_loading_payments"),
        message: t("payments.errors.error_loading_payments_detail", { message: String(e) }),
      }, 503);
    }
    return renderPage(c, deps, c.var.t("payments.payments_page.title"), PaymentsPage, {
      summary,
      today: clock.localDate(now),
      now,
      offsetMinutes: clock.offsetMinutes(),
    });
  });

  /** The form of bill `raw` (from the query or the posted form), or an error screen. */
  async function form(
    c: Context<UserEnv>,
    raw: unknown,
    error?: Refusal,
  ) {
    const t = c.var.t;
    const title = t("payments.payment_form.title");
    const q = formChecked(billQuery, { bill: raw });
    if (q instanceof Refusal) {
      const status = raw === undefined || raw === "" ? 200 : 400;
      return renderPage(c, deps, title, PaymentError, {
        title: t("payments.errors.no_payment_selected"),
      }, status);
    }
    const p = await attempt(tenantPayment(deps, c.var.user, Number(q.bill)));
    if (p instanceof Refusal) {
      return renderPage(c, deps, title, PaymentError, {
        title: t("payments.errors.load_title"),
        message: t(p.key),
      }, 404);
    }
    const message = error
      ? `${t("payments.errors.generate_failed")}: ${t(error.key, error.params)}`
      : undefined;
    return renderPage(c, deps, title, PaymentForm, {
      p,
      testMode: paymentsTestMode(deps),
      now: deps.now(),
      offsetMinutes: clockOf(deps).offsetMinutes(),
      error: message,
    }, error ? refusalStatus(error) as 400 | 404 | 409 | 503 : 200);
  }

  // The bill as text: the form checks it and answers a missing or bad one with its screen.
  const shown = queryInput(z.object({ bill: pageText }));
  // The receipt the portal serves itself (test mode without Openpay's dashboard).
  app.get("/payment/receipt", shown, async (c) => {
    const q = formChecked(billQuery, { bill: c.req.valid("query").bill });
    if (q instanceof Refusal) throw notFound(PAYMENT_ERRORS.notFound);
    const file = await speiReceipt(deps, c.var.user, Number(q.bill), c.var.t);
    return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `inline; filename="${file.filename}"`,
        "cache-control": "private, no-store",
      },
    });
  });
  app.get("/payment", shown, (c) => form(c, c.req.valid("query").bill));
  app.get("/payment/success", shown, (c) => form(c, c.req.valid("query").bill));

  app.post("/payment/generate", async (c) => {
    const raw = formString(await readForm(c), "bill");
    const q = formChecked(billQuery, { bill: raw });
    if (q instanceof Refusal) {
      const t = c.var.t;
      return renderPage(c, deps, t("payments.payment_form.title"), PaymentError, {
        title: t("payments.errors.no_payment_data"),
      }, 400);
    }
    const done = await attempt(referenceFor(deps, c.var.user, Number(q.bill)));
    if (done instanceof Refusal) return form(c, raw, done);
    return c.redirect(`/user/payment/success?bill=${done.id}`, 303);
  });
  return app;
}
