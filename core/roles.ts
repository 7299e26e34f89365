/** Roles of the portal and their homes. */

/** The three roles. `user` is shown as "Tenant". */
export const ROLES = ["admin", "customer", "user"] as const;

/** A role of the portal. */
export type Role = typeof ROLES[number];

/** Interface languages, Spanish first (the default). */
export const LANGUAGES = ["es", "en", "de"] as const;

/** An interface language. */
export type Language = typeof LANGUAGES[number];

/** The default interface language. */
export const DEFAULT_LANGUAGE: Language = "es";

/** True when `value` is one of the interface languages. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** The home path of each role, where the root redirects. */
export function homeOf(role: Role): string {
  return role === "admin" ? "/admin" : role === "customer" ? "/customer" : "/user";
}

/** The role that owns a path's route group, or null for public paths. */
export function roleOfPath(path: string): Role | null {
  if (path === "/admin" || path.startsWith("/admin/")) return "admin";
  if (path === "/customer" || path.startsWith("/customer/")) return "customer";
  if (path === "/user" || path.startsWith("/user/")) return "user";
  return null;
}
