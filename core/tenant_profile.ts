/**
 * A tenant's profile (spec 001, entities: "the tenant profile screen lists personal info,
 * contact info, billing address, emergency contact, lease dates, unit number, square
 * footage"): what the tenant keeps of themselves beyond their account. Personal and contact
 * info are the account's; lease dates and unit come from the tenancies; the rest is this.
 */
import { z } from "zod";
import { isCleanName, NAME_CONTROL_KEY } from "./name_text.ts";

/** The address bills are sent to. */
export interface BillingAddress {
  street: string;
  street_number: string;
  colony: string;
  postal_code: string;
  city: string;
  state: string;
  country: string;
}

/** Who to call in an emergency. */
export interface EmergencyContact {
  name: string;
  phone: string;
  relationship: string;
}

/** What a tenant keeps in their profile. */
export interface TenantProfile {
  billing_address: BillingAddress;
  emergency_contact: EmergencyContact;
  /** The unit's floor area in square metres, as the tenant gives it (null: not given). */
  unit_area_m2: number | null;
}

/** The fields of the address, in the form's order. */
export const ADDRESS_FIELDS = [
  "street",
  "street_number",
  "colony",
  "postal_code",
  "city",
  "state",
  "country",
] as const;
/** The fields of the emergency contact, in the form's order. */
export const EMERGENCY_FIELDS = ["name", "phone", "relationship"] as const;

/** A profile with nothing given. */
export function emptyTenantProfile(): TenantProfile {
  return {
    billing_address: {
      street: "",
      street_number: "",
      colony: "",
      postal_code: "",
      city: "",
      state: "",
      country: "",
    },
    emergency_contact: { name: "", phone: "", relationship: "" },
    unit_area_m2: null,
  };
}

/** Optional text of at most `max` characters, trimmed, without control characters. */
const text = (max: number) =>
  z.string({ error: "validation.invalid" }).optional().transform((s) => (s ?? "").trim())
    .pipe(z.string().max(max, "validation.too_long").refine(isCleanName, NAME_CONTROL_KEY));

/** An optional phone: 8 to 15 digits, with an optional `+` and spaces, dashes, brackets. */
const phone = text(40).refine(
  (s) => s === "" || /^\+?\d{8,15}$/.test(s.replace(/[\s()-]/g, "")),
  "validation.phone_invalid",
);

/** An optional area: a number above 0 and at most 100,000 m², at most 2 decimals. */
const area = z.string({ error: "validation.invalid" }).optional()
  .transform((s) => (s ?? "").trim().replace(",", "."))
  .pipe(
    z.string().refine(
      (s) => s === "" || (/^\d{1,6}(\.\d{1,2})?$/.test(s) && Number(s) > 0 && Number(s) <= 100_000),
      "validation.area_invalid",
    ),
  )
  .transform((s) => (s === "" ? null : Number(s)));

/**
 * The profile form: `billing_<field>`, `emergency_<field>`, `unit_area_m2`; every field
 * optional (messages are locale keys).
 */
export const tenantProfileFormSchema = z.object({
  billing_street: text(160),
  billing_street_number: text(20),
  billing_colony: text(120),
  billing_postal_code: text(12).refine(
    (s) => s === "" || /^[A-Za-z0-9 -]{3,12}$/.test(s),
    "validation.invalid",
  ),
  billing_city: text(120),
  billing_state: text(120),
  billing_country: text(80),
  emergency_name: text(120),
  emergency_phone: phone,
  emergency_relationship: text(60),
  unit_area_m2: area,
});

/** The profile of a validated form. */
export function tenantProfileOf(v: z.infer<typeof tenantProfileFormSchema>): TenantProfile {
  return {
    billing_address: {
      street: v.billing_street,
      street_number: v.billing_street_number,
      colony: v.billing_colony,
      postal_code: v.billing_postal_code,
      city: v.billing_city,
      state: v.billing_state,
      country: v.billing_country,
    },
    emergency_contact: {
      name: v.emergency_name,
      phone: v.emergency_phone,
      relationship: v.emergency_relationship,
    },
    unit_area_m2: v.unit_area_m2,
  };
}
