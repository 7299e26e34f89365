/** The settings page, mounted under each role's area. */
import { secondFactorRoutes } from "./settings_second_factor.tsx";
import { hasSecondFactor } from "../services/second_factor.ts";
import { Hono } from "hono";
import { z } from "zod";
import type { Deps, UserEnv } from "./_deps.ts";
import { formString, readForm, translateErrors } from "./_http.ts";
import { formChecked, pageText, queryInput } from "./_validate.ts";
import { renderPage } from "./_page.tsx";
import { requireUser } from "./_session.ts";
import { profileSchema } from "../core/schemas.ts";
import { updateProfile } from "../services/accounts.ts";
import { attempt, Refusal } from "./_refusal.tsx";
import { SettingsPage } from "../components/SettingsPage.tsx";
import type { User } from "../core/types.ts";
import { tenantLeases } from "../services/tenant/mod.ts";

/**
 * GET and POST `path` (e.g. /admin/settings); the role guard is the caller's, a signed-in one
 * is checked here too. `route` is the path as registered when the app is mounted at a prefix
 * (`/settings` under `/admin`).
 */
export function settingsRoutes(deps: Deps, path: string, route = path): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(route, requireUser());
  /** A tenant's lease dates for the page; nothing for other roles. */
  const leasesOf = async (u: User) => ({
    ...(u.role === "user" ? { leases: await tenantLeases(deps, u) } : {}),
    secondFactor: {
      enabled: await hasSecondFactor(deps, u.id),
      href: `${path}/second-factor`,
      admin: u.role === "admin",
    },
  });
  app.route(`${route}/second-factor`, secondFactorRoutes(deps, `${path}/second-factor`, path));
  app.get(route, queryInput(z.object({ saved: pageText })), async (c) => {
    const u = c.var.user;
    return renderPage(c, deps, c.var.t("settings.title"), SettingsPage, {
      action: path,
      values: { email: u.email, full_name: u.full_name, phone: u.phone, language: u.language },
      fieldErrors: {},
      saved: c.req.valid("query").saved === "1",
      ...await leasesOf(u),
    });
  });
  app.post(route, async (c) => {
    const form = await readForm(c);
    const str = (k: string) => formString(form, k);
    const values = {
      email: str("email"),
      full_name: str("full_name"),
      phone: str("phone"),
      language: str("language"),
    };
    const render = async (fieldErrors: Record<string, string>, error?: string) =>
      renderPage(c, deps, c.var.t("settings.title"), SettingsPage, {
        action: path,
        values,
        fieldErrors,
        error,
        ...await leasesOf(c.var.user),
      }, 400);
    const parsed = formChecked(profileSchema, form);
    if (parsed instanceof Refusal) {
      return render(translateErrors(c, parsed.fields), c.var.t("settings.errors.update_failed"));
    }
    const res = await attempt(updateProfile(deps, c.var.user, parsed));
    if (res instanceof Refusal) {
      return render(translateErrors(c, res.fields), c.var.t("settings.errors.update_failed"));
    }
    return c.redirect(`${path}?saved=1`, 303);
  });
  return app;
}
