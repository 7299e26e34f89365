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
import type { User } from "../core/types.ts";
import { profileSchema } from "../core/schemas.ts";
import { updateProfile } from "../services/accounts.ts";
import { attempt, Refusal } from "./_refusal.tsx";
import { SettingsPage } from "../components/SettingsPage.tsx";
import { messagePrefsProps, messagePrefsRoutes } from "./message_prefs.ts";
import { tenantProfilePost, tenantSectionOf } from "./_tenant_profile.tsx";
import { fiscalProps, fiscalRoutes } from "./settings_fiscal.tsx";

/**
 * GET and POST `path` (e.g. /admin/settings); the role guard is the caller's, a signed-in one
 * is checked here too. `route` is the path as registered when the app is mounted at a prefix
 * (`/settings` under `/admin`); `tenantProfile` adds the tenant profile's form post.
 */
export function settingsRoutes(
  deps: Deps,
  path: string,
  route = path,
  opts: { tenantProfile?: boolean } = {},
): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(route, requireUser());
  app.route("/", messagePrefsRoutes(deps, path, route));
  app.route("/", fiscalRoutes(deps, path, route));
  app.route(`${route}/second-factor`, secondFactorRoutes(deps, `${path}/second-factor`, path));
  /** The second factor's card of the page. */
  const secondFactorOf = async (u: User) => ({
    secondFactor: {
      enabled: await hasSecondFactor(deps, u.id),
      href: `${path}/second-factor`,
      admin: u.role === "admin",
    },
  });
  const shown = z.object({
    saved: pageText,
    messages_saved: pageText,
    profile_saved: pageText,
    fiscal_saved: pageText,
  });
  app.get(route, queryInput(shown), async (c) => {
    const u = c.var.user;
    const q = c.req.valid("query");
    return renderPage(c, deps, c.var.t("settings.title"), SettingsPage, {
      action: path,
      values: { email: u.email, full_name: u.full_name, phone: u.phone, language: u.language },
      fieldErrors: {},
      saved: q.saved === "1",
      ...await tenantSectionOf(deps, u, path, { saved: q.profile_saved === "1" }),
      messages: await messagePrefsProps(deps, u, path, q.messages_saved === "1"),
      ...await secondFactorOf(u),
      ...await fiscalProps(deps, u, path, q.fiscal_saved === "1"),
    });
  });
  // A tenant's profile (spec 001, entities): its own form and section, in the tenant's area.
  if (opts.tenantProfile) {
    app.use(`${route}/profile`, requireUser());
    app.post(
      `${route}/profile`,
      tenantProfilePost(deps, path, async (c, over) => {
        const u = c.var.user;
        return renderPage(c, deps, c.var.t("settings.title"), SettingsPage, {
          action: path,
          values: { email: u.email, full_name: u.full_name, phone: u.phone, language: u.language },
          fieldErrors: {},
          ...await tenantSectionOf(deps, u, path, over),
        }, 400);
      }),
    );
  }
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
        ...await tenantSectionOf(deps, c.var.user, path),
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
