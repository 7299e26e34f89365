/**
 * Admin pages for accounts: the users management page (`/admin/users?tab=&q=&sort=&dir=&page=
 * &size=`, 25 rows a page, which lists access codes too), activate/deactivate and delete with confirmation, and the account form
 * (`/admin/users/accounts-form/{type}[/{id}]`). Create Access Code is
 * `admin_access_codes.tsx`. Every form works without JavaScript; the /admin guard is
 * mounted by `routes/admin.tsx`.
 */
import { answerByTag, untag } from "./_page_tag.ts";
import { adminUsersTag } from "../services/page_tags.ts";
import { loaded, loadFailedPage } from "./_load_failed.tsx";
import { Hono } from "hono";
import { z } from "zod";
import type { Context } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { requireRole } from "./_session.ts";
import { type Form, formString as str, idParam, readForm, translateErrors } from "./_http.ts";
import { acting } from "./_audit.ts";
import { appPage, confirmPage } from "./_page.tsx";
import { attempt, Refusal } from "./_refusal.tsx";
import type { User } from "../core/types.ts";
import { type Role, ROLES } from "../core/roles.ts";
import { accountCreateSchema, accountUpdateSchema, tenantCreateSchema } from "../core/schemas.ts";
import type { FieldErrors } from "../core/schemas.ts";
import {
  createAccount,
  deleteAccount,
  getAccount,
  pageUsers,
  toggleAccount,
  updateAccount,
  USER_SORTS,
  type UserSort,
  userStats,
} from "../services/accounts.ts";
import { CODE_SORTS, type CodeSort, pageCodes } from "../services/access_codes.ts";
import { listHref, type ListQuery, listQuerySchema } from "../core/paging.ts";
import { formChecked, pageText, queryInput, queryOf } from "./_validate.ts";
import { createTenant, tenantUnits } from "../services/tenant_accounts.ts";
import { accessCodeChoices } from "../services/devices/mod.ts";
import type { AccessCode } from "../core/types.ts";
import type { Paging } from "../components/kit/mod.ts";
import { type TabContent, UsersPage } from "../components/users/UsersPage.tsx";
import {
  AccountForm,
  type AccountValues,
  type UnitOption,
} from "../components/users/AccountForm.tsx";
import { backFields } from "../components/users/RowActions.tsx";
import {
  cleanSearch,
  parseFailure,
  parseNotice,
  parseTab,
  roleOfTab,
  tabOfRole,
  usersUrl,
  type UserTab,
} from "../components/users/tabs.ts";

type Ctx = Context<UserEnv>;

const isRole = (v: string | undefined): v is Role => (ROLES as readonly unknown[]).includes(v);

/** The tab and search a row action came from, to go back to. */
function backOf(form: Form, fallback: UserTab): { tab: UserTab; q: string } {
  const tab = form.tab === undefined ? fallback : parseTab(str(form, "tab"));
  return { tab, q: cleanSearch(str(form, "q")) };
}

/** The users page's tab and its flash notice or failure (each checked where it is shown). */
const pageQuery = z.object({ tab: pageText, done: pageText, error: pageText, reason: pageText });

/** Routes under /admin/users, mounted at that prefix. */
export function adminUserRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("admin"));

  app.get("/", queryInput(pageQuery), async (c) => {
    const flags = c.req.valid("query");
    const tab = parseTab(flags.tab);
    const role = roleOfTab(tab);
    const query = role
      ? queryOf(c, listQuerySchema(USER_SORTS))
      : queryOf(c, listQuerySchema(CODE_SORTS));
    const q = query.q;
    const known = await answerByTag(c, deps, () => adminUsersTag(deps, c.var.user));
    if (known) return known;
    const stats = await userStats(deps).catch((e) => {
      deps.log.log("error", "user stats failed", { error: String(e) });
      return null;
    });
    let content: TabContent;
    let paging: Paging | undefined;
    try {
      const page = role
        ? await pageUsers(deps, role, query as ListQuery<UserSort>)
        : await pageCodes(deps, query as ListQuery<CodeSort>);
      content = role
        ? {
          kind: "accounts",
          users: page.rows as User[],
          units: role === "user"
            ? await tenantUnits(deps, (page.rows as User[]).map((u) => u.id))
            : undefined,
        }
        : { kind: "codes", codes: page.rows as AccessCode[] };
      const sort = role ? USER_SORTS[0] : CODE_SORTS[0];
      paging = {
        query: { ...query, page: page.page },
        page,
        href: (to) => listHref("/admin/users", to, { sort }, { tab }),
      };
    } catch (e) {
      deps.log.log("error", "users list failed", { tab, error: String(e) });
      content = { kind: "error" };
    }
    // A part that failed to load is not kept: the next request tries again.
    if (stats === null || content.kind === "error") untag(c);
    return appPage(
      c,
      deps,
      c.var.t("users.title"),
      <UsersPage
        t={c.var.t}
        lang={c.var.lang}
        tab={tab}
        q={q}
        stats={stats}
        notice={parseNotice(flags.done)}
        failure={parseFailure(flags.error, flags.reason)}
        content={content}
        paging={paging}
        selfId={c.var.user.id}
      />,
    );
  });

  app.post("/:id/toggle", async (c) => {
    const form = await readForm(c);
    const back = backOf(form, "tenants");
    const id = idParam(c.req.param("id"));
    if (id === null) {
      return c.redirect(usersUrl(back.tab, { q: back.q, error: "toggle" }), 303);
    }
    const stored = await getAccount(deps, id);
    if (stored?.is_active && str(form, "confirm") !== "yes") {
      const t = c.var.t;
      return confirmPage(c, deps, {
        title: t("users.confirm.deactivate_title"),
        message: t("users.confirm.deactivate_text", { name: stored.full_name }),
        action: `/admin/users/${id}/toggle`,
        fields: backFields(back.tab, back.q),
        cancelHref: usersUrl(back.tab, { q: back.q }),
        confirmLabel: t("users.actions.deactivate"),
      });
    }
    const user = await attempt(toggleAccount(acting(c, deps), c.var.user, id));
    if (user instanceof Refusal) {
      return c.redirect(
        usersUrl(back.tab, { q: back.q, error: "toggle", reason: user.key }),
        303,
      );
    }
    const done = user.is_active ? "activated" : "deactivated";
    return c.redirect(usersUrl(tabOfRole(user.role), { q: back.q, done }), 303);
  });

  app.post("/:id/delete", async (c) => {
    const form = await readForm(c);
    const back = backOf(form, "tenants");
    const fail = (reason: string) =>
      c.redirect(usersUrl(back.tab, { q: back.q, error: "delete", reason }), 303);
    const id = idParam(c.req.param("id"));
    if (id === null) return fail("users.errors.no_selection");
    const stored = await getAccount(deps, id);
    if (!stored) return fail("errors.user_not_found");
    const tab = form.tab === undefined ? tabOfRole(stored.role) : back.tab;
    const fields = backFields(tab, back.q);
    if (str(form, "confirm") !== "yes") {
      const t = c.var.t;
      return confirmPage(c, deps, {
        title: t("users.confirm.delete_account_title"),
        message: t("users.confirm.delete_account_text", { name: stored.full_name }),
        action: `/admin/users/${id}/delete`,
        fields: fields,
        cancelHref: usersUrl(tab, { q: back.q }),
      });
    }
    const refused = await attempt(deleteAccount(acting(c, deps), c.var.user, id));
    if (refused instanceof Refusal) {
      return c.redirect(usersUrl(tab, { q: back.q, error: "delete", reason: refused.key }), 303);
    }
    return c.redirect(usersUrl(tab, { q: back.q, done: "deleted" }), 303);
  });

  /** The units a new tenant can move into (those with a meter, as access codes offer them). */
  const unitOptions = async (): Promise<UnitOption[]> =>
    (await accessCodeChoices(deps)).units.items;

  // The account form: create (/{type}) and edit (/{type}/{id}).
  const renderAccountForm = async (
    c: Ctx,
    o: {
      original: Role | null;
      type: Role;
      id: number | null;
      values: AccountValues;
      fieldErrors?: FieldErrors;
      error?: string;
    },
    status: 200 | 400 = 200,
  ) => {
    const t = c.var.t;
    const title = t(`users.form.${o.original ? "edit" : "create"}_${o.original ?? o.type}`);
    const base = `/admin/users/accounts-form/${o.type}`;
    return appPage(
      c,
      deps,
      title,
      <AccountForm
        t={t}
        title={title}
        action={o.id === null ? base : `${base}/${o.id}`}
        cancelHref={usersUrl(tabOfRole(o.original ?? o.type))}
        original={o.original}
        values={o.values}
        fieldErrors={o.fieldErrors ?? {}}
        error={o.error}
        units={o.original === null && o.type === "user" ? await unitOptions() : undefined}
      />,
      status,
    );
  };

  app.get("/accounts-form/:type", (c) => {
    const type = c.req.param("type");
    if (!isRole(type)) return c.redirect("/admin/users");
    return renderAccountForm(c, {
      original: null,
      type,
      id: null,
      values: {
        email: "",
        full_name: "",
        phone: "",
        role: type,
        is_active: true,
        company_name: "",
        tax_id: "",
      },
    });
  });

  app.get("/accounts-form/:type/:id", async (c) => {
    const type = c.req.param("type");
    const id = idParam(c.req.param("id"));
    const got = await loaded(
      deps,
      "account form",
      async () => isRole(type) && id !== null ? await getAccount(deps, id) : null,
    );
    if (!got.ok) {
      const t = c.var.t;
      return loadFailedPage(c, deps, t("users.form.edit_user"), t("users.errors.fetch_required"));
    }
    const stored = got.value;
    if (!stored || !isRole(type)) return c.redirect("/admin/users");
    const u = stored;
    return renderAccountForm(c, {
      original: u.role,
      type,
      id: u.id,
      values: {
        email: u.email,
        full_name: u.full_name,
        phone: u.phone,
        role: u.role,
        is_active: u.is_active,
        company_name: u.company_name,
        tax_id: u.tax_id,
      },
    });
  });

  const postAccount = async (c: Ctx) => {
    const type = c.req.param("type");
    const rawId = c.req.param("id");
    if (!isRole(type)) return c.redirect("/admin/users", 303);
    const id = rawId === undefined ? null : idParam(rawId);
    const stored = id === null ? null : await getAccount(deps, id);
    if (rawId !== undefined && !stored) return c.redirect("/admin/users", 303);
    const form = await readForm(c);
    const values: AccountValues = {
      email: str(form, "email"),
      full_name: str(form, "full_name"),
      phone: str(form, "phone"),
      role: str(form, "role"),
      is_active: ["on", "true", "1", "yes"].includes(str(form, "is_active")),
      company_name: str(form, "company_name"),
      tax_id: str(form, "tax_id"),
      unit: str(form, "unit"),
      move_in_date: str(form, "move_in_date"),
    };
    const { unit, move_in_date, ...account } = values;
    const body = { ...account, password: str(form, "password") };
    const original = stored ? stored.role : null;
    const t = c.var.t;
    const failed = t(stored ? "users.errors.update_failed" : "users.errors.create_failed");
    const again = (fieldErrors: FieldErrors, detail?: string) =>
      renderAccountForm(c, {
        original,
        type,
        id,
        values,
        fieldErrors,
        error: detail ? `${failed}: ${detail}` : failed,
      }, 400);
    let res: User | Refusal;
    if (stored) {
      const parsed = formChecked(accountUpdateSchema, body);
      if (parsed instanceof Refusal) return again(translateErrors(c, parsed.fields));
      res = await attempt(updateAccount(acting(c, deps), c.var.user, stored.id, parsed));
    } else if (type === "user" && values.role === "user") {
      const parsed = formChecked(tenantCreateSchema, { ...body, unit, move_in_date });
      if (parsed instanceof Refusal) return again(translateErrors(c, parsed.fields));
      res = await attempt(createTenant(acting(c, deps), parsed));
    } else {
      const parsed = formChecked(accountCreateSchema, body);
      if (parsed instanceof Refusal) return again(translateErrors(c, parsed.fields));
      res = await attempt(createAccount(acting(c, deps), parsed));
    }
    if (res instanceof Refusal) {
      if (res.kind === "not_found") return c.redirect("/admin/users", 303);
      return Object.keys(res.fields).length
        ? again(translateErrors(c, res.fields))
        : again({}, t(res.key));
    }
    const done = stored ? "updated" : "created";
    return c.redirect(usersUrl(tabOfRole(res.role), { done }), 303);
  };
  app.post("/accounts-form/:type", postAccount);
  app.post("/accounts-form/:type/:id", postAccount);

  return app;
}
