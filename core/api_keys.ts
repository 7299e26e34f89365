/**
 * API keys' rules: their scopes and what each scope may call (ONE table), a key's shape, and
 * the create form's schema. Pure: the time is a parameter.
 *
 * A key (`pk_` and 43 base64url characters: 256 random bits) is stored only as its SHA-256:
 * with that much entropy no one can search the key from its hash, so a slow password hash adds
 * nothing, and a fast one lets every API request be checked with one lookup.
 */
import { z } from "zod";

/** The scopes of a key. */
export const API_SCOPES = ["read_only", "billing", "devices"] as const;

/** A key's scope. */
export type ApiScope = typeof API_SCOPES[number];

/** A rule of {@link SCOPE_RULES}: methods (`*`: any) and the path prefixes they reach. */
interface ScopeRule {
  methods: readonly string[] | "*";
  prefixes: readonly string[];
}

/**
 * What each scope may call. Account, access-code, audit-log and key management, sign-in and
 * everything outside the JSON API are never reachable with a key.
 * - read_only: any GET of the JSON API;
 * - billing: the bills, billing runs, payments, finances, reports and zones (prices) API;
 * - devices: the stations, sensors, meters, certificates and measurements API.
 */
export const SCOPE_RULES: Readonly<Record<ApiScope, readonly ScopeRule[]>> = {
  read_only: [{ methods: ["GET", "HEAD"], prefixes: ["/api/"] }],
  billing: [{
    methods: "*",
    prefixes: [
      "/api/bills",
      "/api/bimester-bills",
      "/api/customer-bills",
      "/api/bimester-customer-bills",
      "/api/unified-billing",
      "/api/finances",
      "/api/reports",
      "/api/zones",
      "/api/customer-billing-overview",
    ],
  }],
  devices: [{
    methods: "*",
    prefixes: ["/api/devices", "/api/measurements", "/api/analytics"],
  }],
};

/** Never reachable with a key, whatever its scope. */
const NEVER = ["/api/users", "/api/audit-log", "/api/api-keys", "/api/auth", "/api/logging"];

/** Whether a path is `prefix` or under it. */
const under = (path: string, prefix: string) =>
  prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix || path.startsWith(`${prefix}/`);

/** Whether a key of `scope` may call `method path`. */
export function scopeAllows(scope: ApiScope, method: string, path: string): boolean {
  if (!path.startsWith("/api/") || NEVER.some((p) => under(path, p))) return false;
  return SCOPE_RULES[scope].some((r) =>
    (r.methods === "*" || r.methods.includes(method)) && r.prefixes.some((p) => under(path, p))
  );
}

/** A key as written in `Authorization: Bearer`. */
export const API_KEY = /^pk_[A-Za-z0-9_-]{43}$/;

/** A stored key, as listed (never the key itself). */
export interface ApiKey {
  id: string;
  name: string;
  scope: ApiScope;
  created_at: number;
  expires_at: number;
  /** Who made it (the key acts as this admin, within its scope). */
  created_by: { id: number; email: string };
  revoked_at: number | null;
  /** The last request it made, kept to the minute. */
  last_used_at: number | null;
}

/** Whether a key works at `now`. */
export function keyLive(k: ApiKey, now: number): boolean {
  return k.revoked_at === null && now < k.expires_at;
}

/** The create form: a name, a scope, days until it expires. */
export const apiKeyCreateSchema = z.object({
  name: z.string({ error: "api_keys.errors.name_required" }).trim()
    .min(1, "api_keys.errors.name_required").max(80, "api_keys.errors.name_too_long"),
  scope: z.enum(API_SCOPES, { error: "api_keys.errors.scope_invalid" }),
  expires_in_days: z.coerce.number({ error: "api_keys.errors.expiry_invalid" })
    .int("api_keys.errors.expiry_invalid").min(1, "api_keys.errors.expiry_invalid")
    .max(730, "api_keys.errors.expiry_invalid"),
});

/** Days in ms. */
export const DAY_MS = 86_400_000;
/** How stale a key's `last_used_at` may get before a request writes it again. */
export const LAST_USE_EVERY_MS = 60_000;
