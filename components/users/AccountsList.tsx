/** The accounts of one tab: a table on desktop and cards on phones (same data). */
import type { Translate } from "../../services/platform/i18n.ts";
import type { User } from "../../core/types.ts";
import { formatDate } from "./format.ts";
import { backFields, DeleteButton, ToggleButton } from "./RowActions.tsx";
import type { UserTab } from "./tabs.ts";

/** Props of {@link AccountsList}. */
export interface AccountsListProps {
  t: Translate;
  lang: string;
  tab: UserTab;
  q: string;
  users: User[];
}

/** The Active/Inactive badge. */
function StatusBadge({ t, active }: { t: Translate; active: boolean }) {
  return (
    <span className={`badge ${active ? "badge-green" : "badge-grey"}`}>
      {t(active ? "users.status.active" : "users.status.inactive")}
    </span>
  );
}

/** Table and cards of accounts with Edit, Activate/Deactivate and Delete. */
export function AccountsList({ t, lang, tab, q, users }: AccountsListProps) {
  const withCompany = tab === "customers";
  const fields = backFields(tab, q);
  const actions = (u: User) => (
    <div className="row-actions">
      <a className="btn btn-sm btn-secondary" href={`/admin/users/accounts-form/${u.role}/${u.id}`}>
        {t("users.actions.edit")}
      </a>
      <ToggleButton t={t} id={u.id} active={u.is_active} fields={fields} />
      <DeleteButton
        t={t}
        action={`/admin/users/${u.id}/delete`}
        fields={fields}
        title={t("users.confirm.delete_account_title")}
        message={t("users.confirm.delete_account_text", { name: u.full_name })}
      />
    </div>
  );
  const dash = (s: string) => s || "—";
  return (
    <>
      <div className="card table-wrap table-only">
        <table className="data">
          <thead>
            <tr>
              <th scope="col">{t("users.columns.name")}</th>
              <th scope="col">{t("users.columns.email")}</th>
              <th scope="col">{t("users.columns.phone")}</th>
              {withCompany && <th scope="col">{t("users.columns.company")}</th>}
              <th scope="col">{t("users.columns.status")}</th>
              <th scope="col">{t("users.columns.created")}</th>
              <th scope="col">{t("users.columns.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id} data-user-id={u.id}>
                <td>{u.full_name}</td>
                <td>{u.email}</td>
                <td>{dash(u.phone)}</td>
                {withCompany && <td>{dash(u.company_name)}</td>}
                <td>
                  <StatusBadge t={t} active={u.is_active} />
                </td>
                <td>{formatDate(u.created_at, lang)}</td>
                <td>{actions(u)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="cards-list" aria-label={t("users.columns.name")}>
        {users.map((u) => (
          <li key={u.id} className="item-card">
            <div className="item-head">
              <strong>{u.full_name}</strong>
              <StatusBadge t={t} active={u.is_active} />
            </div>
            <dl>
              <dt>{t("users.columns.email")}</dt>
              <dd>{u.email}</dd>
              <dt>{t("users.columns.phone")}</dt>
              <dd>{dash(u.phone)}</dd>
              {withCompany && (
                <>
                  <dt>{t("users.columns.company")}</dt>
                  <dd>{dash(u.company_name)}</dd>
                </>
              )}
              <dt>{t("users.columns.created")}</dt>
              <dd>{formatDate(u.created_at, lang)}</dd>
            </dl>
            {actions(u)}
          </li>
        ))}
      </ul>
    </>
  );
}
