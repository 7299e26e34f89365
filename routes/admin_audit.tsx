/**
 * `/admin/audit`: the audit trail for admins (filters, pages by cursor, CSV download). Read
 * only: nothing here edits or deletes an entry. Mounted under the /admin guard.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { requireRole } from "./_session.ts";
import { queryInput } from "./_validate.ts";
import { appPage } from "./_page.tsx";
import { csvDownload } from "./_csv.ts";
import { auditPageQuerySchema, fieldsText } from "../core/audit.ts";
import { auditPage } from "../services/audit.ts";
import { AUDIT_PAGE_SIZE, auditAll, auditFilterOf } from "../services/audit_list.ts";
import { findUsers } from "../services/accounts.ts";
import { clockOf } from "../services/platform/clock.ts";
import { AuditPage } from "../components/audit/AuditPage.tsx";

/** Routes under /admin/audit. */
export function adminAuditRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("admin"));
  app.get("/", queryInput(auditPageQuerySchema), async (c) => {
    const t = c.var.t;
    const q = c.req.valid("query");
    const filter = auditFilterOf(deps, q);
    const clock = clockOf(deps);
    const when = (at: number) => clock.localDateTime(at);
    if (q.format === "csv") {
      const rows = (await auditAll(deps, filter)).map((e) => [
        new Date(e.at).toISOString(),
        e.actor.id ?? "",
        e.actor.email,
        e.actor.address,
        e.kind,
        e.object,
        e.reason ?? "",
        fieldsText(e.before),
        fieldsText(e.after),
      ]);
      const head = ["at", "actor_id", "actor_email", "address", "kind", "object", "reason"];
      return csvDownload("audit.csv", [[...head, "before", "after"], ...rows]);
    }
    const page = await auditPage(deps, filter, AUDIT_PAGE_SIZE, q.cursor);
    const people = (await findUsers(deps, "admin")).map((u) => ({ id: u.id, email: u.email }));
    const href = (extra: Record<string, string | undefined>) => {
      const all: Record<string, string | number | undefined> = { ...q, ...extra };
      const s = new URLSearchParams();
      for (const [k, v] of Object.entries(all)) if (v !== undefined && v !== "") s.set(k, `${v}`);
      const text = s.toString();
      return text ? `/admin/audit?${text}` : "/admin/audit";
    };
    return appPage(
      c,
      deps,
      t("audit.title"),
      <AuditPage
        t={t}
        query={q}
        entries={page.entries}
        people={people}
        when={when}
        href={href}
        nextCursor={page.next_cursor}
      />,
    );
  });
  return app;
}
