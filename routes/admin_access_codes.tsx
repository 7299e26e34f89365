/**
 * Create Access Code (`/admin/access-codes/create`) with its generated code and the stations
 * or units it assigns, and the access-code delete with confirmation. Codes are listed on the
 * users page (`admin_users.tsx`); the /admin guard is mounted by `routes/admin.tsx`.
 */
import { acting } from "./_audit.ts";
import { Hono } from "hono";
import { z } from "zod";
import type { Context } from "hono";
import type { AppEnv, Deps, UserEnv } from "./_deps.ts";
import {
  formList as list,
  formString as str,
  idParam,
  readForm,
  translateErrors,
} from "./_http.ts";
import { formChecked, pageText, queryInput } from "./_validate.ts";
import { requireRole } from "./_session.ts";
import { appPage, confirmPage } from "./_page.tsx";
import { attempt, Refusal } from "./_refusal.tsx";
import { accessCodeSchema, type FieldErrors } from "../core/schemas.ts";
import { canDeleteAccessCode } from "../core/types.ts";
import { createCode, findCode, generateCode, removeCode } from "../services/access_codes.ts";
import { accessCodeChoices } from "../services/devices/mod.ts";
import {
  AccessCodePage,
  type AccessCodeValues,
  type ShownChoices,
} from "../components/users/AccessCodePage.tsx";
import { searchText } from "../core/paging.ts";
import type { StationOption, UnitOption } from "../core/access_code.ts";
import { backFields } from "../components/users/RowActions.tsx";
import { cleanSearch, usersUrl } from "../components/users/tabs.ts";

/** The create form's query: the code's role and the search text it starts with (any text). */
const createQuery = z.object({ role: pageText, q: pageText });

/** Routes under /admin/access-codes. */
export function adminAccessCodeRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("admin"));

  const renderCodeForm = async <E extends AppEnv>(
    c: Context<E>,
    values: AccessCodeValues,
    fieldErrors: FieldErrors = {},
    error?: string,
    status: 200 | 400 = 200,
  ) => {
    let options: { stations: ShownChoices<StationOption>; units: ShownChoices<UnitOption> };
    try {
      options = await accessCodeChoices(deps, values);
    } catch (e) {
      deps.log.log("error", "access code resources failed", { error: String(e) });
      const none = { items: [], matching: 0 };
      options = { stations: none, units: none };
      error ??= c.var.t("users.errors.fetch_resources");
    }
    return appPage(
      c,
      deps,
      c.var.t("users.code_form.title"),
      <AccessCodePage
        t={c.var.t}
        action="/admin/access-codes/create"
        cancelHref={usersUrl("access-codes")}
        values={values}
        stations={options.stations}
        units={options.units}
        fieldErrors={fieldErrors}
        error={error}
      />,
      status,
    );
  };

  app.get("/create", queryInput(createQuery), async (c) =>
    renderCodeForm(c, {
      code: await generateCode(deps),
      role: c.req.valid("query").role === "customer" ? "customer" : "user",
      notes: "",
      move_in_date: "",
      stations: [],
      units: [],
      q: searchText(c.req.valid("query").q),
    }));

  app.post("/create", async (c) => {
    const form = await readForm(c);
    const values: AccessCodeValues = {
      code: str(form, "code"),
      role: str(form, "role") === "customer" ? "customer" : "user",
      notes: str(form, "notes"),
      move_in_date: str(form, "move_in_date"),
      stations: list(form, "stations").map(Number).filter((n) => Number.isSafeInteger(n) && n > 0),
      units: list(form, "units"),
      q: searchText(str(form, "q")),
    };
    if (str(form, "action") === "regenerate") {
      return renderCodeForm(c, { ...values, code: await generateCode(deps) });
    }
    // A search button, or Enter in a search field whose text changed: show what matches.
    if (str(form, "action") === "search" || values.q !== searchText(str(form, "q_shown"))) {
      return renderCodeForm(c, values);
    }
    const failed = c.var.t("users.errors.create_code_failed");
    const parsed = formChecked(accessCodeSchema, {
      code: values.code,
      role: str(form, "role"),
      assignments: { stations: list(form, "stations"), units: list(form, "units") },
      notes: values.notes,
      move_in_date: values.move_in_date,
    }, { fieldDepth: 1 });
    if (parsed instanceof Refusal) {
      return renderCodeForm(c, values, translateErrors(c, parsed.fields), failed, 400);
    }
    const res = await attempt(createCode(acting(c, deps), parsed));
    if (res instanceof Refusal) {
      return renderCodeForm(c, values, translateErrors(c, res.fields), failed, 400);
    }
    return c.redirect(usersUrl("access-codes", { done: "code_created" }), 303);
  });

  app.post("/:id/delete", async (c) => {
    const form = await readForm(c);
    const q = cleanSearch(str(form, "q"));
    const fail = (reason: string) =>
      c.redirect(usersUrl("access-codes", { q, error: "delete", reason }), 303);
    const id = idParam(c.req.param("id"));
    if (id === null) return fail("users.errors.no_selection");
    const code = await findCode(deps, id);
    if (!code) return fail("errors.access_code_not_found");
    if (!canDeleteAccessCode(code)) return fail("errors.access_code_in_use");
    if (str(form, "confirm") !== "yes") {
      const t = c.var.t;
      return confirmPage(c, deps, {
        title: t("users.confirm.delete_code_title"),
        message: t("users.confirm.delete_code_text", { code: code.code }),
        action: `/admin/access-codes/${id}/delete`,
        fields: backFields("access-codes", q),
        cancelHref: usersUrl("access-codes", { q }),
      });
    }
    const refused = await attempt(removeCode(acting(c, deps), id));
    if (refused instanceof Refusal) return fail(refused.key);
    return c.redirect(usersUrl("access-codes", { q, done: "code_deleted" }), 303);
  });

  return app;
}
