/** The accounts of one tab: one responsive list (a table on desktop, cards on phones). */
import type { Translate } from "../../services/platform/i18n.ts";
import type { User } from "../../core/types.ts";
import { formatDate } from "./format.ts";
import { backFields, DeleteButton, ToggleButton } from "./RowActions.tsx";
import { ResetLinkButton } from "../messages/ResetLinkButton.tsx";
import { tabLabelKey, type UserTab } from "./tabs.ts";
import {
  type ListColumn,
  type Paging,
  ResponsiveList,
  sortBy,
  StatusBadge as Badge,
} from "../kit/mod.ts";

/** Props of {@link AccountsList}. */
interface AccountsListProps {
  t: Translate;
  lang: string;
  tab: UserTab;
  q: string;
  users: User[];
  /** The page's sortable headers (keys of `USER_SORTS` in `services/accounts.ts`). */
  paging?: Paging;
  /** The signed-in admin's id: their own row offers no deactivate or delete. */
  selfId: number;
  /** Tenants: the units each holds (a Unit column shows). */
  units?: Map<number, string[]>;
}

/** The Active/Inactive badge. */
function StatusBadge({ t, active }: { t: Translate; active: boolean }) {
  return (
    <Badge tone={active ? "green" : "grey"}>
      {t(active ? "users.status.active" : "users.status.inactive")}
    </Badge>
  );
}

/** The accounts with Edit, Activate/Deactivate and Delete. */
export function AccountsList(
  { t, lang, tab, q, users, paging, selfId, units }: AccountsListProps,
) {
  const L = (k: string) => t(`users.columns.${k}`);
  const sort = (key: string, col: string) => sortBy(t, paging, key, L(col));
  const withCompany = tab === "customers";
  const fields = backFields(tab, q);
  const actions = (u: User) => (
    <div className="row-actions">
      <a className="btn btn-sm btn-secondary" href={`/admin/users/accounts-form/${u.role}/${u.id}`}>
        {t("users.actions.edit")}
      </a>
      {u.id !== selfId && (
        <>
          <ToggleButton
            t={t}
            id={u.id}
            name={u.full_name}
            active={u.is_active}
            fields={fields}
          />
          <ResetLinkButton t={t} id={u.id} active={u.is_active} />
          <DeleteButton
            t={t}
            action={`/admin/users/${u.id}/delete`}
            fields={fields}
            title={t("users.confirm.delete_account_title")}
            message={t("users.confirm.delete_account_text", { name: u.full_name })}
          />
        </>
      )}
    </div>
  );
  const dash = (s: string) => s || "—";
  const columns: ListColumn<User>[] = [
    { label: L("name"), primary: true, cell: (u) => u.full_name, sort: sort("name", "name") },
    ...(units
      ? [{
        label: L("unit"),
        cell: (u: User) => {
          const held = units.get(u.id) ?? [];
          return held.length
            ? <span data-testid="tenant-units">{held.join(", ")}</span>
            : <span className="muted">{t("users.no_unit")}</span>;
        },
      }]
      : []),
    { label: L("email"), cell: (u) => u.email, sort: sort("email", "email") },
    { label: L("phone"), cell: (u) => dash(u.phone), sort: sort("phone", "phone") },
    ...(withCompany
      ? [{
        label: L("company"),
        cell: (u: User) => dash(u.company_name),
        sort: sort("company", "company"),
      }]
      : []),
    {
      label: t("users.columns.status"),
      aside: true,
      sort: sort("status", "status"),
      cell: (u) => <StatusBadge t={t} active={u.is_active} />,
    },
    {
      label: L("created"),
      cell: (u) => formatDate(u.created_at, lang),
      sort: sort("created", "created"),
    },
    { label: t("users.columns.actions"), actions: true, cell: actions },
  ];
  return (
    <ResponsiveList
      label={t(tabLabelKey(tab))}
      columns={columns}
      rows={users}
      rowKey={(u) => u.id}
      rowAttrs={(u) => ({ "data-user-id": u.id })}
    />
  );
}
