/** The access codes: a table on desktop and cards on phones (same data). */
import type { Translate } from "../../services/platform/i18n.ts";
import { type AccessCode, canDeleteAccessCode } from "../../core/types.ts";
import { formatDate } from "./format.ts";
import { backFields, DeleteButton } from "./RowActions.tsx";
import { Island } from "../render.tsx";
import CopyButton from "../../islands/CopyButton.tsx";

/** Props of {@link CodesList}. */
export interface CodesListProps {
  t: Translate;
  lang: string;
  q: string;
  codes: AccessCode[];
}

/** "2 stations" for a customer code, "1 unit" for a tenant code. */
export function assignmentsLabel(t: Translate, code: AccessCode): string {
  const customer = code.role === "customer";
  const n = customer ? code.assignments.stations.length : code.assignments.units.length;
  const kind = customer ? "stations" : "units";
  return t(`users.assignments.${kind}_${n === 1 ? "one" : "other"}`, { n });
}

/** Available, or Used with the e-mail that used it. */
function CodeStatus({ t, code }: { t: Translate; code: AccessCode }) {
  if (!code.is_used) {
    return <span className="badge badge-green">{t("users.status.available")}</span>;
  }
  return (
    <span>
      <span className="badge badge-grey">{t("users.status.used")}</span>
      {code.used_by_email && (
        <span className="small muted">
          {" "}
          {t("users.status.used_by", { email: code.used_by_email })}
        </span>
      )}
    </span>
  );
}

/** Table and cards of access codes with Copy and, when allowed, Delete. */
export function CodesList({ t, lang, q, codes }: CodesListProps) {
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
    <>
      <div className="card table-wrap table-only">
        <table className="data">
          <thead>
            <tr>
              <th scope="col">{t("users.columns.code")}</th>
              <th scope="col">{t("users.columns.role")}</th>
              <th scope="col">{t("users.columns.notes")}</th>
              <th scope="col">{t("users.columns.assignments")}</th>
              <th scope="col">{t("users.columns.status")}</th>
              <th scope="col">{t("users.columns.created")}</th>
              <th scope="col">{t("users.columns.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {codes.map((c) => (
              <tr key={c.id} data-code-id={c.id}>
                <td>
                  <code className="code">{c.code}</code>
                </td>
                <td>{role(c)}</td>
                <td className="notes-cell">{c.notes || "—"}</td>
                <td>{assignmentsLabel(t, c)}</td>
                <td>
                  <CodeStatus t={t} code={c} />
                </td>
                <td>{formatDate(c.created_at, lang)}</td>
                <td>{actions(c)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="cards-list" aria-label={t("users.tabs.access_codes")}>
        {codes.map((c) => (
          <li key={c.id} className="item-card">
            <div className="item-head">
              <code className="code">{c.code}</code>
              <CodeStatus t={t} code={c} />
            </div>
            <dl>
              <dt>{t("users.columns.role")}</dt>
              <dd>{role(c)}</dd>
              <dt>{t("users.columns.notes")}</dt>
              <dd>{c.notes || "—"}</dd>
              <dt>{t("users.columns.assignments")}</dt>
              <dd>{assignmentsLabel(t, c)}</dd>
              <dt>{t("users.columns.created")}</dt>
              <dd>{formatDate(c.created_at, lang)}</dd>
            </dl>
            {actions(c)}
          </li>
        ))}
      </ul>
    </>
  );
}
