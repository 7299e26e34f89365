/** The tabs of the users management page, their roles, and links back to them. */
import type { Role } from "../../core/roles.ts";

/** The four tabs, Tenants first (the default). */
export const USER_TABS = ["tenants", "customers", "admins", "access-codes"] as const;

/** A tab of the users management page. */
export type UserTab = typeof USER_TABS[number];

/** The tab named by a query value; Tenants when missing or unknown. */
export function parseTab(value: unknown): UserTab {
  return (USER_TABS as readonly unknown[]).includes(value) ? value as UserTab : "tenants";
}

/** The role listed under an account tab; null for Access Codes. */
export function roleOfTab(tab: UserTab): Role | null {
  return tab === "tenants"
    ? "user"
    : tab === "customers"
    ? "customer"
    : tab === "admins"
    ? "admin"
    : null;
}

/** The tab that lists accounts of a role. */
export function tabOfRole(role: Role): UserTab {
  return role === "user" ? "tenants" : role === "customer" ? "customers" : "admins";
}

/** The locale key of a tab's label. */
export function tabLabelKey(tab: UserTab): string {
  return `users.tabs.${tab === "access-codes" ? "access_codes" : tab}`;
}

/** Longest search accepted. */
const MAX_SEARCH = 200;

/** Cleans a search query: trimmed and capped. */
export function cleanSearch(value: unknown): string {
  return typeof value === "string" ? value.trim().slice(0, MAX_SEARCH) : "";
}

/** `/admin/users?tab=...` with optional search and further flags (empty values left out). */
export function usersUrl(tab: UserTab, extra: Record<string, string | undefined> = {}): string {
  const p = new URLSearchParams({ tab });
  for (const [k, v] of Object.entries(extra)) if (v) p.set(k, v);
  return `/admin/users?${p}`;
}

/** Success notices the page shows after a redirect (`done=`). */
const NOTICES = [
  "created",
  "updated",
  "deleted",
  "activated",
  "deactivated",
  "code_created",
  "code_deleted",
] as const;

/** A success notice. */
export type Notice = typeof NOTICES[number];

/** The notice named by a query value, or null. */
export function parseNotice(value: unknown): Notice | null {
  return (NOTICES as readonly unknown[]).includes(value) ? value as Notice : null;
}

/** What failed, as carried by a redirect (`error=`, with `reason=` a locale key). */
export type Failure = { what: "toggle" | "delete"; reason: string | null } | null;

/** The failure named by query values; the reason must look like an errors/users key. */
export function parseFailure(what: unknown, reason: unknown): Failure {
  if (what !== "toggle" && what !== "delete") return null;
  const ok = typeof reason === "string" && /^(errors|users\.errors)\.[a-z_]{1,60}$/.test(reason);
  return { what, reason: ok ? reason as string : null };
}
