/**
 * The audit trail page (`/admin/audit`): filters by person, kind, object and dates, the
 * entries newest first (who, from where, what, before and after), older pages by cursor, CSV.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import {
  AUDIT_KINDS,
  type AuditEntry,
  type AuditPageQuery,
  type Fields,
  fieldsText,
} from "../../core/audit.ts";
import { PageHeader, ResponsiveList } from "../kit/mod.ts";

/** Props of {@link AuditPage}. */
export interface AuditPageProps {
  t: Translate;
  query: AuditPageQuery;
  entries: readonly AuditEntry[];
  /** The people who may appear in the trail (admins): id and e-mail. */
  people: readonly { id: number; email: string }[];
  /** An entry's time in the business time zone. */
  when: (at: number) => string;
  /** The URL of this list with other values (`cursor`, `format`). */
  href: (extra: Record<string, string | undefined>) => string;
  nextCursor: string | null;
}

/** Changed fields, one per line (`field: value`). */
function FieldLines({ fields }: { fields: Fields | null }) {
  if (!fields) return null;
  return (
    <div className="audit-fields" style={{ fontSize: "0.85em", minWidth: "12rem" }}>
      {Object.entries(fields).map(([k, v]) => (
        <div key={k} style={{ overflowWrap: "anywhere" }}>
          <code>{k}</code>: {fieldsText({ [k]: v }).slice(k.length + 2)}
        </div>
      ))}
    </div>
  );
}

/** The filter form, the entries and the pager. */
export function AuditPage(p: AuditPageProps) {
  const { t, query: q } = p;
  return (
    <>
      <PageHeader
        title={t("audit.title")}
        subtitle={t("audit.subtitle")}
        actions={
          <a className="btn" href={p.href({ cursor: undefined, format: "csv" })} download>
            {t("audit.download_csv")}
          </a>
        }
      />
      <form method="get" action="/admin/audit" className="card audit-filters">
        <div className="form-grid">
          <label>
            {t("audit.filters.person")}
            <select name="actor" defaultValue={q.actor ?? ""}>
              <option value="">{t("audit.filters.anyone")}</option>
              {p.people.map((u) => <option key={u.id} value={u.id}>{u.email}</option>)}
            </select>
          </label>
          <label>
            {t("audit.filters.kind")}
            <select name="kind" defaultValue={q.kind ?? ""}>
              <option value="">{t("audit.filters.any_kind")}</option>
              {AUDIT_KINDS.map((k) => <option key={k} value={k}>{t(`audit.kinds.${k}`)}</option>)}
            </select>
          </label>
          <label>
            {t("audit.filters.object")}
            <input type="text" name="object" defaultValue={q.object ?? ""} placeholder="user:12" />
          </label>
          <label>
            {t("audit.filters.from")}
            <input type="date" name="from" defaultValue={q.from ?? ""} />
          </label>
          <label>
            {t("audit.filters.to")}
            <input type="date" name="to" defaultValue={q.to ?? ""} />
          </label>
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary">{t("audit.filters.apply")}</button>
          <a className="btn" href="/admin/audit">{t("audit.filters.clear")}</a>
        </div>
      </form>
      <ResponsiveList
        label={t("audit.title")}
        testId="audit-list"
        rows={p.entries}
        rowKey={(e) => e.id}
        rowAttrs={(e) => ({ "data-audit-id": e.id, "data-kind": e.kind })}
        columns={[
          {
            label: t("audit.columns.kind"),
            primary: true,
            cell: (e) => t(`audit.kinds.${e.kind}`),
          },
          { label: t("audit.columns.when"), className: "nowrap", cell: (e) => p.when(e.at) },
          { label: t("audit.columns.who"), cell: (e) => e.actor.email },
          { label: t("audit.columns.address"), className: "mono", cell: (e) => e.actor.address },
          { label: t("audit.columns.object"), className: "mono", cell: (e) => e.object },
          { label: t("audit.columns.reason"), cell: (e) => e.reason ?? "" },
          { label: t("audit.columns.before"), cell: (e) => <FieldLines fields={e.before} /> },
          { label: t("audit.columns.after"), cell: (e) => <FieldLines fields={e.after} /> },
        ]}
        empty={<p className="empty">{t("audit.empty")}</p>}
      />
      <nav className="pager" aria-label={t("audit.title")}>
        {q.cursor && <a href={p.href({ cursor: undefined })}>{t("audit.newest")}</a>}
        {p.nextCursor && (
          <a href={p.href({ cursor: p.nextCursor })} rel="next">{t("audit.older")}</a>
        )}
      </nav>
    </>
  );
}
