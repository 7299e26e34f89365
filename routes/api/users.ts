/**
 * Users and access codes API: `/api/users*`, `/api/users/stats`, `/api/users/profile`,
 * `/api/users/access-codes*`, `/api/users/{id}/toggle`. Admin only, except the profile.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { idParam, jsonBody, pathId } from "../_http.ts";
import { queryInput } from "../_validate.ts";
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

/** Routes under /api/users, mounted at that prefix. */
export function userApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();

  // The profile is anyone's own; it is registered before the admin guard.
  app.get("/profile", requireApiRole(), (c) => c.json(c.var.user));
  app.put("/profile", requireApiRole(), async (c) => {
    const parsed = await jsonBody(c, profileSchema);
    if (!parsed.ok) return parsed.res;
    return c.json(await updateProfile(deps, c.var.user, parsed.data));
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
  app.post("/access-codes", async (c) => {
    const parsed = await jsonBody(c, accessCodeSchema, "users.errors.create_code_failed");
    if (!parsed.ok) return parsed.res;
    return c.json(await createCode(deps, parsed.data), 201);
  });
  app.delete("/access-codes/:id", async (c) => {
    const id = pathId(c, "errors.access_code_not_found");
    await removeCode(deps, id);
    return c.json({ message: "Access code deleted successfully" });
  });

  app.get("/", queryInput(usersQuerySchema, { message: "validation.failed" }), async (c) => {
    const { role, search } = c.req.valid("query");
    const users = await findUsers(deps, role, search);
    return listJson(c, "users", users, (u) => u.id, (u) => u);
  });
  app.post("/", async (c) => {
    const parsed = await jsonBody(c, accountCreateSchema, "users.errors.create_failed");
    if (!parsed.ok) return parsed.res;
    return c.json(await createAccount(deps, parsed.data), 201);
  });
  app.get("/:id", async (c) => {
    const id = idParam(c.req.param("id"));
    const user = id === null ? null : await getAccount(deps, id);
    if (!user) return c.json({ message: c.var.t("errors.user_not_found") }, 404);
    return c.json(user);
  });
  app.put("/:id", async (c) => {
    const id = pathId(c, "errors.user_not_found");
    const parsed = await jsonBody(c, accountUpdateSchema, "users.errors.update_failed");
    if (!parsed.ok) return parsed.res;
    return c.json(await updateAccount(deps, c.var.user, id, parsed.data));
  });
  app.delete("/:id", async (c) => {
    const id = pathId(c, "errors.user_not_found");
    await deleteAccount(deps, c.var.user, id);
    return c.json({ message: "User deleted successfully" });
  });
  app.post("/:id/toggle", async (c) => {
    const id = pathId(c, "errors.user_not_found");
    return c.json(await toggleAccount(deps, c.var.user, id));
  });
  return app;
}
