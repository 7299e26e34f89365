/**
 * Input schemas for sessions, accounts, access codes, profiles, notifications and the
 * client log sink. Every message is a locale key (see `locales/`), translated when the
 * error reaches the user.
 */
import { z } from "zod";
import { isRealDate } from "./local_time.ts";
import { isValidEmail, normalizeEmail } from "./email.ts";
import { isValidAccessCode, normalizeAccessCode } from "./access_code.ts";
import { LANGUAGES, ROLES } from "./roles.ts";
import { isCleanName, NAME_CONTROL_KEY } from "./name_text.ts";

/**
 * Largest amount a price, fee or threshold may hold (per kWh, per month, kWh): far above any
 * real tariff, small enough that billing arithmetic stays exact.
 */
export const MAX_AMOUNT = 1_000_000;

/** Minimum password length. */
const MIN_PASSWORD = 6;
/** Maximum password length accepted (guards the KDF against huge inputs). */
const MAX_PASSWORD = 256;
/** Phone national digits, minimum and maximum. */
const PHONE_DIGITS = { min: 8, max: 15 } as const;
/** Country calling codes offered by the registration form, Mexico first (the default). */
export const PHONE_COUNTRIES = [
  { id: "MX", dial: "+52" },
  { id: "US", dial: "+1" },
  { id: "ES", dial: "+34" },
  { id: "DE", dial: "+49" },
  { id: "CA", dial: "+1" },
] as const;

const NAME_PATTERN = /^[\p{L}\s'.-]+$/u;

const text = (max: number) =>
  z.string({ error: "validation.invalid" }).max(max, "validation.too_long");

/** An e-mail field: normalized, required and well formed. */
const emailField = z
  .string({ error: "validation.email_required" })
  .transform(normalizeEmail)
  .pipe(
    z.string().min(1, "validation.email_required").refine(isValidEmail, "validation.email_invalid"),
  );

const fullName = z
  .string({ error: "validation.full_name_required" })
  .refine(isCleanName, NAME_CONTROL_KEY)
  .transform((s) => s.trim().replace(/\s+/g, " "))
  .pipe(
    z.string()
      .min(1, "validation.full_name_required")
      .max(120, "validation.too_long")
      .refine((s) => NAME_PATTERN.test(s), "validation.full_name_letters")
      .refine((s) => (s.match(/\p{L}/gu) ?? []).length >= 2, "validation.full_name_min"),
  );

/** A phone number as sent by the register form: `+<country code><8 to 15 digits>`. */
const phoneField = z
  .string({ error: "validation.phone_invalid" })
  .transform((s) => s.replace(/[\s()-]/g, ""))
  .pipe(
    z.string().refine((s) => {
      const country = PHONE_COUNTRIES.find((c) => s.startsWith(c.dial));
      if (!country) return /^\d{8,15}$/.test(s);
      const rest = s.slice(country.dial.length);
      return /^\d+$/.test(rest) && rest.length >= PHONE_DIGITS.min &&
        rest.length <= PHONE_DIGITS.max;
    }, "validation.phone_invalid"),
  );

const password = z
  .string({ error: "validation.password_required" })
  .min(1, "validation.password_required")
  .max(MAX_PASSWORD, "validation.too_long");

const newPassword = z
  .string({ error: "validation.password_required" })
  .min(1, "validation.password_required")
  .min(MIN_PASSWORD, "validation.password_min")
  .max(MAX_PASSWORD, "validation.too_long");

/** POST /auth/login */
export const loginSchema = z.object({ email: emailField, password });

/** POST /auth/register and /api/auth/register: the JSON body of spec 000 section 7. */
export const registerSchema = z.object({
  email: emailField,
  password: newPassword,
  full_name: fullName,
  phone: phoneField,
  accessCode: z
    .string({ error: "validation.access_code_required" })
    .transform(normalizeAccessCode)
    .pipe(
      z.string().min(1, "validation.access_code_required").refine(
        isValidAccessCode,
        "validation.access_code_invalid",
      ),
    ),
  role: z.literal("user", { error: "validation.invalid" }).optional(),
});

/** The register page's form: the API body plus confirmation and terms. */
export const registerFormSchema = registerSchema
  .extend({
    confirm_password: z.string({ error: "validation.passwords_mismatch" }),
    terms: z.literal("on", { error: "validation.terms_required" }),
  })
  .refine((v) => v.password === v.confirm_password, {
    path: ["confirm_password"],
    message: "validation.passwords_mismatch",
    // Also when other fields fail, so that the form shows every error at once.
    when: ({ value }) => {
      const v = value as { password?: unknown; confirm_password?: unknown } | null;
      return typeof v?.password === "string" && typeof v.confirm_password === "string";
    },
  });

const optionalText = (max: number) =>
  z.union([text(max), z.null()]).optional().transform((v) => (v ?? "").trim());

/** Fields common to creating and editing an account (POST/PUT /api/users). */
const accountBase = {
  email: emailField,
  full_name: z
    .string({ error: "validation.full_name_required" })
    .refine(isCleanName, NAME_CONTROL_KEY)
    .transform((s) => s.trim())
    .pipe(z.string().min(1, "validation.full_name_required").max(120, "validation.too_long")),
  phone: optionalText(40),
  role: z.enum(ROLES, { error: "validation.role_invalid" }),
  is_active: z.boolean({ error: "validation.invalid" }).optional(),
  company_name: optionalText(160).refine(isCleanName, NAME_CONTROL_KEY),
  tax_id: optionalText(40),
  language: z.enum(LANGUAGES, { error: "validation.language_invalid" }).optional(),
};

/** POST /api/users: password required. */
export const accountCreateSchema = z.object({ ...accountBase, password: newPassword });

/** PUT /api/users/{id}: password optional; blank keeps the current one. */
export const accountUpdateSchema = z.object({
  ...accountBase,
  password: z
    .union([z.string({ error: "validation.invalid" }), z.null()])
    .optional()
    .transform((v) => v ?? "")
    .pipe(
      z.string().refine(
        (v) => v === "" || (v.length >= MIN_PASSWORD && v.length <= MAX_PASSWORD),
        "validation.password_min",
      ),
    ),
});

/** PUT /api/users/profile */
export const profileSchema = z
  .object({
    email: emailField,
    full_name: accountBase.full_name,
    phone: optionalText(40),
    language: z.enum(LANGUAGES, { error: "validation.language_invalid" }),
    current_password: optionalText(MAX_PASSWORD),
    new_password: optionalText(MAX_PASSWORD),
    confirm_password: optionalText(MAX_PASSWORD),
  })
  .superRefine((v, ctx) => {
    if (v.new_password === "" && v.confirm_password === "") return;
    if (v.new_password.length < MIN_PASSWORD) {
      ctx.addIssue({ code: "custom", path: ["new_password"], message: "validation.password_min" });
    }
    if (v.new_password !== v.confirm_password) {
      ctx.addIssue({
        code: "custom",
        path: ["confirm_password"],
        message: "validation.passwords_mismatch",
      });
    }
    if (v.current_password === "") {
      ctx.addIssue({
        code: "custom",
        path: ["current_password"],
        message: "validation.current_password_required",
      });
    }
  });

/** A unit selection of an access code: `sensorId:unitId`. */
const UNIT_SELECTION = /^\d{1,12}:unit_\d{1,3}$/;

/** A move-in date (`YYYY-MM-DD`, 2000 to 2100); empty or absent: none. */
const moveInDate = z.preprocess(
  (v) => v === "" ? null : v,
  z.string({ error: "validation.move_in_date" }).refine(
    (d) => isRealDate(d) && d >= "2000-01-01" && d <= "2100-12-31",
    "validation.move_in_date",
  ).nullish(),
);

/** POST /api/users/access-codes */
export const accessCodeSchema = z.object({
  code: z
    .string({ error: "validation.access_code_required" })
    .transform(normalizeAccessCode)
    .pipe(z.string().refine(isValidAccessCode, "validation.access_code_invalid")),
  role: z.enum(["customer", "user"], { error: "validation.role_invalid" }),
  assignments: z
    .object({
      stations: z.array(z.coerce.number().int().positive(), { error: "validation.invalid" })
        .max(500, "validation.too_long").default([]),
      units: z.array(
        z.string().regex(UNIT_SELECTION, "validation.invalid"),
        { error: "validation.invalid" },
      ).max(500, "validation.too_long").default([]),
    }, { error: "validation.invalid" })
    .default({ stations: [], units: [] }),
  notes: optionalText(500),
  /** A tenant code's move-in date (`YYYY-MM-DD`, 2000 to 2100); empty or absent: none. */
  move_in_date: moveInDate,
});

/**
 * The admin's form creating a tenant directly: the account, the unit they move into
 * (`sensorId:unit_N`; empty: none yet) and the move-in date (`YYYY-MM-DD`; empty: today).
 */
export const tenantCreateSchema = accountCreateSchema.extend({
  role: z.literal("user", { error: "validation.role_invalid" }),
  unit: z.preprocess(
    (v) => v === "" ? null : v,
    z.string({ error: "validation.invalid" }).regex(UNIT_SELECTION, "validation.invalid")
      .nullish(),
  ),
  move_in_date: moveInDate,
});

/** GET /api/notifications query. */
export const notificationsQuerySchema = z.object({
  status: z.enum(["active", "resolved", "all"], { error: "validation.invalid" }).default("active"),
  limit: z.coerce.number({ error: "validation.invalid" }).int("validation.invalid").min(
    1,
    "validation.invalid",
  ).max(50, "validation.invalid").default(50),
});

/** GET /api/users query. */
export const usersQuerySchema = z.object({
  role: z.enum(ROLES, { error: "validation.role_invalid" }).optional(),
  search: z.string().max(200, "validation.too_long").optional(),
});

/** POST /logging: the client log sink. */
export const logEntrySchema = z.object({
  level: z.enum(["debug", "info", "warn", "error"], { error: "validation.invalid" }),
  message: z.string({ error: "validation.invalid" }).max(2000, "validation.too_long"),
  context: z.record(z.string(), z.unknown()).optional(),
});

/** A map from field name to the locale key of its first error. */
export type FieldErrors = Record<string, string>;

/** Turns zod issues into a field-errors map (first message per field; `_` for the form). */
export function toFieldErrors(
  issues: readonly { path: PropertyKey[]; message: string }[],
): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.length ? String(issue.path[0]) : "_";
    if (!(key in out)) {
      out[key] = issue.message.startsWith("validation.") ? issue.message : "validation.invalid";
    }
  }
  return out;
}
