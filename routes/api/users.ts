/**
 * Users and access codes API: `/api/users*`, `/api/users/stats`, `/api/users/profile`,
 * `/api/users/access-codes*`, `/api/users/{id}/toggle`. Admin only, except the profile.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { idParam, pathId } from "../_http.ts";
import { acting } from "../_audit.ts";
import { jsonInput, queryInput, type Rules } from "../_validate.ts";
import { encodeCursor } from "../../core/paging.ts";
import { apiPage, listJson } from "./_list.ts";
import { requireApiRole } from "../_session.ts";
import {
  accessCodeSchema,
  accountCreateSchema,
  accountUpdateSchema,
  profileSchema,
  usersQuerySchema,
} from "../../core/schemas.ts";
import {
  createAccount,
  deleteAccount,
  findUsers,
  getAccount,
  toggleAccount,
  updateAccount,
  updateProfile,
  userStats,
} from "../../services/accounts.ts";
import { allCodes, codesAfter, createCode, removeCode } from "../../services/access_codes.ts";

/**
 * How the account calls refuse a body: under `message`, field by field, by the field's top
 * name (`assignments` for a bad station of an access code), null or an array as the field `_`.
 */
const bodyRules = (message = "validation.failed"): Rules => ({
  message,
  anyJson: true,
  fieldDepth: 1,
});

/** Routes under /api/users, mounted at that prefix. */
export function userApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();

  // The profile is anyone's own; it is registered before the admin guard.
  app.get("/profile", requireApiRole(), (c) => c.json(c.var.user));
  app.put("/profile", requireApiRole(), jsonInput(profileSchema, bodyRules()), async (c) => {
    return c.json(await updateProfile(deps, c.var.user, c.req.valid("json")));
  });

  app.use(requireApiRole("admin"));

  app.get("/stats", async (c) => c.json(await userStats(deps)));

  // Every code newest first; with `limit`/`cursor`, a page read from the store in id order.
  app.get("/access-codes", async (c) => {
    const page = apiPage(c);
    if (page === null) return c.json({ codes: await allCodes(deps) });
    const { codes, more } = await codesAfter(deps, page.after, page.limit);
    const last = codes.at(-1);
    return c.json({ codes, next_cursor: more && last ? encodeCursor(last.id) : null });
  });
  const codeInput = jsonInput(accessCodeSchema, bodyRules("users.errors.create_code_failed"));
  app.post("/access-codes", codeInput, async (c) => {
    return c.json(await createCode(acting(c, deps), c.req.valid("json")), 201);
  });
  app.delete("/access-codes/:id", async (c) => {
    const id = pathId(c, "errors.access_code_not_found");
    await removeCode(acting(c, deps), id);
    return c.json({ message: "Access code deleted successfully" });
  });

  app.get("/", queryInput(usersQuerySchema, { message: "validation.failed" }), async (c) => {
    const { role, search } = c.req.valid("query");
    const users = await findUsers(deps, role, search);
    return listJson(c, "users", users, (u) => u.id, (u) => u);
  });
  const createInput = jsonInput(accountCreateSchema, bodyRules("users.errors.create_failed"));
  app.post("/", createInput, async (c) => {
    return c.json(await createAccount(acting(c, deps), c.req.valid("json")), 201);
  });
  app.get("/:id", async (c) => {
    const id = idParam(c.req.param("id"));
    const user = id === null ? null : await getAccount(deps, id);
    if (!user) return c.json({ message: c.var.t("errors.user_not_found") }, 404);
    return c.json(user);
  });
  const updateInput = jsonInput(accountUpdateSchema, bodyRules("users.errors.update_failed"));
  app.put("/:id", updateInput, async (c) => {
    const id = pathId(c, "errors.user_not_found");
    return c.json(await updateAccount(acting(c, deps), c.var.user, id, c.req.valid("json")));
  });
  app.delete("/:id", async (c) => {
    const id = pathId(c, "errors.user_not_found");
    await deleteAccount(acting(c, deps), c.var.user, id);
    return c.json({ message: "User deleted successfully" });
  });
  app.post("/:id/toggle", async (c) => {
    const id = pathId(c, "errors.user_not_found");
    return c.json(await toggleAccount(acting(c, deps), c.var.user, id));
  });
  return app;
}
