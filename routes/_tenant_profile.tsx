/**
 * The tenant profile on the settings page (spec 001, entities): the section's data for the page
 * and its form's post, `POST <settings>/profile` (a tenant only; others get 404). A refused
 * form comes back with the values typed and the errors in the user's language; nothing is
 * saved then.
 */
import type { Context } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { readForm, translateErrors } from "./_http.ts";
import { formChecked } from "./_validate.ts";
import { Refusal } from "./_refusal.tsx";
import { tenantProfileFormSchema, tenantProfileOf } from "../core/tenant_profile.ts";
import { saveTenantProfile, tenantLeases, tenantProfile } from "../services/tenant/mod.ts";
import type { TenantSectionProps } from "../components/settings/TenantProfileSection.tsx";
import type { User } from "../core/types.ts";

/** The tenant section's props for `u` (nothing for other roles), with `over` applied. */
export async function tenantSectionOf(
  deps: Deps,
  u: User,
  path: string,
  over: Partial<TenantSectionProps> = {},
): Promise<{ tenant?: TenantSectionProps }> {
  if (u.role !== "user") return {};
  const [profile, leases] = await Promise.all([tenantProfile(deps, u), tenantLeases(deps, u)]);
  return { tenant: { action: `${path}/profile`, profile, leases, ...over } };
}

/**
 * Handles the profile form: saved, back to the settings page; refused, `render` draws the page
 * again with the section's typed values and errors (400).
 */
export function tenantProfilePost(
  deps: Deps,
  path: string,
  render: (
    c: Context<UserEnv>,
    over: Partial<TenantSectionProps>,
  ) => Promise<Response>,
) {
  return async (c: Context<UserEnv>) => {
    if (c.var.user.role !== "user") return c.notFound();
    const form = await readForm(c);
    const typed: Record<string, string> = {};
    for (const [k, v] of Object.entries(form)) if (typeof v === "string") typed[k] = v;
    const parsed = formChecked(tenantProfileFormSchema, form);
    if (parsed instanceof Refusal) {
      return render(c, {
        typed,
        errors: translateErrors(c, parsed.fields),
        error: c.var.t("tenant_profile.errors.update_failed"),
      });
    }
    await saveTenantProfile(deps, c.var.user, tenantProfileOf(parsed));
    return c.redirect(`${path}?profile_saved=1#tenant-profile`, 303);
  };
}
