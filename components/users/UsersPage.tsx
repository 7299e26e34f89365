/**
 * The users management page: stat cards, tabs (Tenants, Customers, Admins, Access Codes),
 * search, create buttons, the list of the tab, empty states and notices.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { AccessCode, User, UserStats } from "../../core/types.ts";
import { Stat } from "../HomePage.tsx";
import { AccountsList } from "./AccountsList.tsx";
import {
  AddLink,
  Card,
  FormError,
  PageHeader,
  PagerOf,
  type Paging,
  SearchForm,
} from "../kit/mod.ts";
import { CodesList } from "./CodesList.tsx";
import {
  type Failure,
  type Notice,
  tabLabelKey,
  USER_TABS,
  usersUrl,
  type UserTab,
} from "./tabs.ts";

/** What the tab lists, or that loading it failed. */
export type TabContent =
  /** `units`: on the Tenants tab, the units each tenant holds (`Station · Unit`). */
  | { kind: "accounts"; users: User[]; units?: Map<number, string[]> }
  | { kind: "codes"; codes: AccessCode[] }
  | { kind: "error" };

/** Props of {@link UsersPage}. */
interface UsersPageProps {
  t: Translate;
  lang: string;
  tab: UserTab;
  q: string;
  /** Null when the statistics could not be loaded. */
  stats: UserStats | null;
  notice: Notice | null;
  failure: Failure;
  content: TabContent;
  /** The page shown of the tab's list: its pager and sortable headers. */
  paging?: Paging;
  /** The signed-in admin's id (their own row has no deactivate or delete). */
  selfId: number;
}

const CREATE: Partial<Record<UserTab, { href: string; key: string }>> = {
  tenants: { href: "/admin/users/accounts-form/user", key: "users.create_tenant" },
  customers: { href: "/admin/users/accounts-form/customer", key: "users.create_customer" },
  admins: { href: "/admin/users/accounts-form/admin", key: "users.create_admin" },
  "access-codes": { href: "/admin/access-codes/create", key: "users.create_access_code" },
};

/** The text of a failure carried by a redirect. */
function failureText(t: Translate, failure: NonNullable<Failure>): string {
  const known = failure.reason && t(failure.reason) !== failure.reason ? t(failure.reason) : null;
  if (failure.what === "toggle") {
    return known
      ? t("users.errors.toggle_failed_reason", { message: known })
      : t("users.errors.toggle_failed");
  }
  return t("users.errors.delete_failed", {
    message: known ?? t("errors.something_went_wrong"),
  });
}

/** The page. */
export function UsersPage(
  { t, lang, tab, q, stats, notice, failure, content, paging, selfId }: UsersPageProps,
) {
  const create = CREATE[tab];
  const empty = tab === "access-codes" ? "codes" : tab;
  const isEmpty = (content.kind === "accounts" && content.users.length === 0) ||
    (content.kind === "codes" && content.codes.length === 0);
  return (
    <>
      <PageHeader
        title={t("users.title")}
        actions={create && (
          <AddLink href={create.href} testId="create-button">{t(create.key)}</AddLink>
        )}
      />
      {notice && (
        <div className="alert alert-success notice" role="status">
          {t(`users.notices.${notice}`)}
        </div>
      )}
      {failure && <FormError>{failureText(t, failure)}</FormError>}
      {stats
        ? (
          <div className="stats">
            <Stat label={t("users.stats.total_users")} value={stats.totalUsers} />
            <Stat label={t("users.stats.customers")} value={stats.totalCustomers} />
            <Stat label={t("users.stats.tenants")} value={stats.totalTenants} />
            <Stat label={t("users.stats.unused_codes")} value={stats.unusedCodes} />
          </div>
        )
        : <FormError>{t("users.errors.load_stats_failed")}</FormError>}
      <nav className="tabs" aria-label={t("users.tabs.label")}>
        {USER_TABS.map((k) => (
          <a
            key={k}
            className="tab"
            href={usersUrl(k)}
            aria-current={k === tab ? "page" : undefined}
          >
            {t(tabLabelKey(k))}
          </a>
        ))}
      </nav>
      <div className="toolbar">
        <SearchForm
          action="/admin/users"
          hidden={{ tab }}
          id="users-search"
          label={t("users.search.label")}
          placeholder={t(
            tab === "access-codes"
              ? "users.search.codes_placeholder"
              : "users.search.accounts_placeholder",
          )}
          q={q}
          submit={t("users.search.submit")}
          clear={t("users.search.clear")}
          clearHref={usersUrl(tab)}
        />
      </div>
      {content.kind === "error" && (
        <FormError notice={false}>
          {t("users.errors.load_failed", { tab: t(tabLabelKey(tab)) })}
        </FormError>
      )}
      {isEmpty && (
        <Card
          title={t(q ? "users.empty.search_title" : `users.empty.${empty}_title`)}
          className="empty"
          data-testid="empty-state"
        >
          <p>{q ? t("users.empty.search_text", { q }) : t(`users.empty.${empty}_text`)}</p>
        </Card>
      )}
      {!isEmpty && content.kind === "accounts" && (
        <AccountsList
          t={t}
          lang={lang}
          tab={tab}
          q={q}
          users={content.users}
          paging={paging}
          selfId={selfId}
          units={content.units}
        />
      )}
      {!isEmpty && content.kind === "codes" && (
        <CodesList t={t} lang={lang} q={q} codes={content.codes} paging={paging} />
      )}
      {!isEmpty && content.kind !== "error" && paging && (
        <PagerOf t={t} label={t(tabLabelKey(tab))} paging={paging} />
      )}
    </>
  );
}
