/**
 * The fiscal data card of Settings (issue 31): `POST <settings>/fiscal` checks and stores it
 * (a refusal draws Settings again with the card's field errors, 400), `POST
 * <settings>/fiscal/remove` removes it; both back to Settings. Tenants and owners only; an admin's
 * Settings shows the invoices' issuer instead.
 */
import { Hono } from "hono";
import { formChecked } from "./_validate.ts";
import { fiscalSchema } from "../core/fiscal.ts";
import type { Deps, UserEnv } from "./_deps.ts";
import { formString, readForm, translateErrors } from "./_http.ts";
import { requireUser } from "./_session.ts";
import type { User } from "../core/types.ts";
import {
  fiscalDataOf,
  issuerOf,
  type IssuerView,
  mayKeepFiscalData,
  removeFiscalData,
  saveFiscalData,
} from "../services/invoices/mod.ts";
import { attempt, Refusal } from "./_refusal.tsx";
import { renderPage } from "./_page.tsx";
import { SettingsPage } from "../components/SettingsPage.tsx";
import type { FiscalCardProps } from "../components/settings/FiscalCard.tsx";

/**
 * The card's props for `u` on the Settings page at `path`; an admin gets the issuer's card
 * instead (the operator's Facturapi organization, read-only).
 */
export async function fiscalProps(
  deps: Deps,
  u: User,
  path: string,
  saved: boolean,
): Promise<{ fiscal?: FiscalCardProps; issuer?: IssuerView }> {
  if (u.role === "admin") return { issuer: await issuerOf(deps) };
  if (!mayKeepFiscalData(u)) return {};
  return {
    fiscal: {
      action: `${path}/fiscal`,
      data: await fiscalDataOf(deps, u.id),
      saved,
    },
  };
}

/** The card's posts (`route` as registered, `path` as browsers see it). */
export function fiscalRoutes(deps: Deps, path: string, route: string): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(`${route}/fiscal`, requireUser());
  app.use(`${route}/fiscal/remove`, requireUser());
  app.post(`${route}/fiscal`, async (c) => {
    const form = await readForm(c);
    const typed = Object.fromEntries(
      ["rfc", "legal_name", "tax_system", "zip", "use"].map((k) => [k, formString(form, k)]),
    );
    // Admins keep no fiscal data: refused before their form is read.
    if (!mayKeepFiscalData(c.var.user)) throw new Refusal("forbidden", "errors.forbidden");
    const checked = formChecked(fiscalSchema, typed, { message: "fiscal.errors.invalid" });
    const res = checked instanceof Refusal
      ? checked
      : await attempt(saveFiscalData(deps, c.var.user, checked));
    if (!(res instanceof Refusal)) return c.redirect(`${path}?fiscal_saved=1#fiscal`, 303);
    if (res.kind !== "invalid") throw res;
    const u = c.var.user;
    return renderPage(c, deps, c.var.t("settings.title"), SettingsPage, {
      action: path,
      values: { email: u.email, full_name: u.full_name, phone: u.phone, language: u.language },
      fieldErrors: {},
      fiscal: {
        action: `${path}/fiscal`,
        data: await fiscalDataOf(deps, u.id),
        typed,
        errors: translateErrors(c, res.fields),
        error: c.var.t(res.key),
      },
    }, 400);
  });
  app.post(`${route}/fiscal/remove`, async (c) => {
    if (!mayKeepFiscalData(c.var.user)) return c.redirect(path, 303);
    await removeFiscalData(deps, c.var.user);
    return c.redirect(`${path}#fiscal`, 303);
  });
  return app;
}
