/**
 * The admin's messages (issue 28): `GET /admin/messages` (sent, pending, failed), `POST
 * /admin/messages/resend` (form field `id`: send a failed one again), `GET
 * /admin/messages/files/:name` (an `.eml` file of the outbox folder, when mails are written
 * there) and `POST /admin/messages/reset-link/:id` (the users list's "Send reset link").
 */
import { type Context, Hono } from "hono";
import type { AppEnv, Deps, UserEnv } from "./_deps.ts";
import { renderPage } from "./_page.tsx";
import { formString, readForm } from "./_http.ts";
import { pageText, queryInput } from "./_validate.ts";
import { z } from "zod";
import { attempt, Refusal } from "./_refusal.tsx";
import { notFound } from "../services/refusal.ts";
import { requireRole } from "./_session.ts";
import { messagesPage, outboxFiles, sendAgain } from "../services/messages/mod.ts";
import { sendResetLink } from "../services/password_reset.ts";
import { AdminMessagesPage } from "../components/messages/AdminMessagesPage.tsx";
import { clockOf } from "../services/platform/clock.ts";

/** Routes under /admin/messages. */
export function adminMessageRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<UserEnv>();
  app.use("*", requireRole("admin"));
  const folder = () => deps.mail?.folder ?? null;

  const page = async (
    c: Context<UserEnv>,
    msg: { notice?: string; error?: string },
    status: 200 | 400 | 404 = 200,
  ) =>
    renderPage(c, deps, c.var.t("messages.admin.title"), AdminMessagesPage, {
      data: await messagesPage(deps, folder()),
      where: deps.mail?.where ?? "—",
      offsetMinutes: clockOf(deps).offsetMinutes(),
      ...msg,
    }, status);
  const refused = (c: Context<UserEnv>, r: Refusal) =>
    page(c, { error: c.var.t(r.key) }, r.kind === "not_found" ? 404 : 400);

  const shown = queryInput(z.object({ reset_sent: pageText, queued: pageText }));
  app.get("/", shown, (c) => {
    const { reset_sent: sentTo, queued } = c.req.valid("query");
    if (sentTo) return page(c, { notice: c.var.t("messages.reset.admin_sent", { email: sentTo }) });
    if (queued) return page(c, { notice: c.var.t("messages.admin.sent_again") });
    return page(c, {});
  });

  app.post("/resend", async (c) => {
    const id = formString(await readForm(c), "id").slice(0, 500);
    const done = await attempt(sendAgain(deps, id));
    if (done instanceof Refusal) return refused(c, done);
    deps.mail?.kick();
    return c.redirect("/admin/messages?queued=1", 303);
  });

  app.post("/reset-link/:id", async (c) => {
    const id = c.req.param("id");
    if (!/^\d{1,12}$/.test(id)) return refused(c, notFound("errors.user_not_found"));
    const done = await attempt(sendResetLink(deps, Number(id)));
    if (done instanceof Refusal) return refused(c, done);
    deps.mail?.kick();
    return c.redirect(`/admin/messages?reset_sent=${encodeURIComponent(done.email)}`, 303);
  });

  app.get("/files/:name", async (c) => {
    const dir = folder();
    const name = c.req.param("name");
    const files = dir ? await outboxFiles(dir) : [];
    // Only a file the folder lists by that exact name: no path reaches outside it.
    if (!dir || !files.some((f) => f.name === name)) {
      return c.json({ message: c.var.t("errors.not_found") }, 404);
    }
    const bytes = await Deno.readFile(`${dir}/${name}`);
    return c.body(bytes, 200, {
      "content-type": "message/rfc822",
      "content-disposition": `attachment; filename="${name}"`,
    });
  });
  return app as unknown as Hono<AppEnv>;
}
