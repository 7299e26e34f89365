/**
 * `/admin/api-keys`: an admin makes API keys (the key shown once), lists them with their last
 * use and revokes them at once. Mounted under the /admin guard.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { acting } from "./_audit.ts";
import { readForm, translateErrors } from "./_http.ts";
import { formChecked } from "./_validate.ts";
import { appPage } from "./_page.tsx";
import { requireRole } from "./_session.ts";
import { attempt, Refusal } from "./_refusal.tsx";
import { apiKeyCreateSchema } from "../core/api_keys.ts";
import { apiKeys, createApiKey, revokeKey } from "../services/api_keys.ts";
import { clockOf } from "../services/platform/clock.ts";
import { ApiKeysPage, type ApiKeysPageProps } from "../components/api_keys/ApiKeysPage.tsx";

const ID = /^[0-9a-f]{12}$/;

/** Routes under /admin/api-keys. */
export function adminApiKeyRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("admin"));
  const page = async (
    c: Context<UserEnv>,
    extra: Pick<ApiKeysPageProps, "created" | "fieldErrors" | "error"> = {},
    status: 200 | 400 = 200,
  ) => {
    const clock = clockOf(deps);
    return appPage(
      c,
      deps,
      c.var.t("api_keys.title"),
      <ApiKeysPage
        t={c.var.t}
        keys={await apiKeys(deps)}
        when={(at) => clock.localDateTime(at)}
        now={deps.now()}
        {...extra}
      />,
      status,
    );
  };
  app.get("/", (c) => page(c));
  app.post("/", async (c) => {
    const parsed = formChecked(apiKeyCreateSchema, await readForm(c));
    if (parsed instanceof Refusal) {
      const error = c.var.t("api_keys.errors.create_failed");
      return page(c, { fieldErrors: translateErrors(c, parsed.fields), error }, 400);
    }
    const made = await createApiKey(acting(c, deps), parsed, c.var.user);
    return page(c, { created: { name: made.key.name, token: made.token } });
  });
  app.post("/:id/revoke", async (c) => {
    const id = c.req.param("id");
    const res = ID.test(id) ? await attempt(revokeKey(acting(c, deps), id)) : null;
    if (res === null || res instanceof Refusal) {
      return page(c, { error: c.var.t("api_keys.errors.not_found") }, 400);
    }
    return c.redirect("/admin/api-keys", 303);
  });
  return app;
}
