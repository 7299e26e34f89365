/** The access codes: one responsive list (a table on desktop, cards on phones). */
import type { Translate } from "../../services/platform/i18n.ts";
import { type AccessCode, canDeleteAccessCode } from "../../core/types.ts";
import { formatDate } from "./format.ts";
import { backFields, DeleteButton } from "./RowActions.tsx";
import { Island } from "../render.tsx";
import CopyButton from "../../islands/CopyButton.tsx";
import { type Paging, ResponsiveList, sortBy, StatusBadge } from "../kit/mod.ts";

/** Props of {@link CodesList}. */
interface CodesListProps {
  t: Translate;
  lang: string;
  q: string;
  codes: AccessCode[];
  /** The page's sortable headers (keys of `CODE_SORTS` in `services/access_codes.ts`). */
  paging?: Paging;
}

/** "2 stations" for a customer code, "1 unit" for a tenant code. */
function assignmentsLabel(t: Translate, code: AccessCode): string {
  const customer = code.role === "customer";
  const n = customer ? code.assignments.stations.length : code.assignments.units.length;
  const kind = customer ? "stations" : "units";
  return t(`users.assignments.${kind}_${n === 1 ? "one" : "other"}`, { n });
}

/** Available, or Used with the e-mail that used it. */
function CodeStatus({ t, code }: { t: Translate; code: AccessCode }) {
  if (!code.is_used) {
    return <StatusBadge tone="green">{t("users.status.available")}</StatusBadge>;
  }
  return (
    <span>
      <StatusBadge tone="grey">{t("users.status.used")}</StatusBadge>
      {code.used_by_email && (
        <span className="small muted">
          {" "}
          {t("users.status.used_by", { email: code.used_by_email })}
        </span>
      )}
    </span>
  );
}

/** The access codes with Copy and, when allowed, Delete. */
export function CodesList({ t, lang, q, codes, paging }: CodesListProps) {
  const sort = (key: string, col: string) => sortBy(t, paging, key, t(`users.columns.${col}`));
  const fields = backFields("access-codes", q);
  const actions = (c: AccessCode) => (
    <div className="row-actions">
      <Island
        of={CopyButton}
        props={{
          text: c.code,
          label: t("users.actions.copy"),
          copiedLabel: t("users.actions.copied"),
        }}
      />
      {canDeleteAccessCode(c) && (
        <DeleteButton
          t={t}
          action={`/admin/access-codes/${c.id}/delete`}
          fields={fields}
          title={t("users.confirm.delete_code_title")}
          message={t("users.confirm.delete_code_text", { code: c.code })}
        />
      )}
    </div>
  );
  const role = (c: AccessCode) => t(`common.roles.${c.role}`);
  return (
    <ResponsiveList
      label={t("users.tabs.access_codes")}
      rows={codes}
      rowKey={(c) => c.id}
      rowAttrs={(c) => ({ "data-code-id": c.id })}
      columns={[
        {
          label: t("users.columns.code"),
          primary: true,
          cell: (c) => <code className="code">{c.code}</code>,
          sort: sort("code", "code"),
        },
        { label: t("users.columns.role"), cell: role, sort: sort("role", "role") },
        { label: t("users.columns.notes"), className: "notes-cell", cell: (c) => c.notes || "—" },
        { label: t("users.columns.assignments"), cell: (c) => assignmentsLabel(t, c) },
        {
          label: t("users.columns.status"),
          aside: true,
          cell: (c) => <CodeStatus t={t} code={c} />,
          sort: sort("status", "status"),
        },
        {
          label: t("users.columns.created"),
          cell: (c) => formatDate(c.created_at, lang),
          sort: sort("created", "created"),
        },
        { label: t("users.columns.actions"), actions: true, cell: actions },
      ]}
    />
  );
}
