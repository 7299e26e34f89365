/** Entities of spec 000 section 3 as the portal stores and serves them. */
import type { Language, Role } from "./roles.ts";

/** A user account. The password hash never leaves `db/`. */
export interface User {
  id: number;
  email: string;
  full_name: string;
  phone: string;
  role: Role;
  is_active: boolean;
  language: Language;
  company_name: string;
  tax_id: string;
  /** What the access code used at registration bound the account to. */
  assignments: Assignments;
  created_at: number;
  updated_at: number;
}

/** Stations (customers) and units `sensorId:unitId` (tenants) bound to an account. */
export interface Assignments {
  stations: number[];
  units: string[];
}

/** An access code for self-registration. */
export interface AccessCode {
  id: number;
  code: string;
  role: "customer" | "user";
  notes: string;
  assignments: Assignments;
  /**
   * The day a tenant code's units are held from (`YYYY-MM-DD`, issue 24): the tenancy of the
   * account registered with it starts then; null or absent: at registration.
   */
  move_in_date?: string | null;
  is_used: boolean;
  used_by_id: number | null;
  used_by_email: string | null;
  created_at: number;
}

/** The four notification types. */
const NOTIFICATION_TYPES = [
  "payment_overdue",
  "sensor_offline",
  "payment_received",
  "bill_created",
] as const;

/** A notification type. */
export type NotificationType = typeof NOTIFICATION_TYPES[number];

/** A notification for one user. */
export interface Notification {
  id: number;
  user_id: number;
  type: NotificationType;
  priority: "high" | "medium" | "low";
  title: string;
  message: string;
  created_at: number;
  status: "active" | "resolved";
  /** What the notification is about (a sensor id for sensor_offline, a bill id, ...). */
  subject_id: string | null;
  /**
   * The values its texts are made from, when the texts are rendered in the reader's language
   * at read time (bill notices); null for a notification stored with fixed texts.
   */
  params?: Record<string, string | number> | null;
  /** Where the reader acts on it (the bill), or null. */
  link?: string | null;
}

/** The user statistics of the users management page. */
export interface UserStats {
  totalUsers: number;
  totalCustomers: number;
  totalTenants: number;
  unusedCodes: number;
}

/** Whether an access code may be deleted: unused, or used with no user id. */
export function canDeleteAccessCode(code: Pick<AccessCode, "is_used" | "used_by_id">): boolean {
  return !code.is_used || code.used_by_id === null;
}

/** Whether a notification may be resolved by hand (sensor_offline resolves itself). */
export function canResolveByHand(n: Pick<Notification, "type" | "status">): boolean {
  return n.status === "active" && n.type !== "sensor_offline";
}

/** Assignments kept when an account changes role: customers keep stations, tenants units. */
export function assignmentsForRole(a: Assignments, role: Role): Assignments {
  if (role === "customer") return { stations: a.stations, units: [] };
  if (role === "user") return { stations: [], units: a.units };
  return { stations: [], units: [] };
}
