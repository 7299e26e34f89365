import assert from "node:assert/strict";
import {
  accessCodeSchema,
  accountCreateSchema,
  accountUpdateSchema,
  loginSchema,
  notificationsQuerySchema,
  profileSchema,
  registerFormSchema,
  registerSchema,
  toFieldErrors,
} from "./schemas.ts";
import type { z } from "zod";

/** The field-errors map of a failed parse, or null when the input is accepted. */
function errorsOf(schema: z.ZodType, input: unknown): Record<string, string> | null {
  const res = schema.safeParse(input);
  return res.success ? null : toFieldErrors(res.error.issues);
}

const REGISTRATION = {
  email: "ana@example.com",
  password: "secret1",
  full_name: "Ana Pérez",
  phone: "+525512345678",
  accessCode: "ABCD2345",
  role: "user",
};

/** The field errors of {@link REGISTRATION} with `changes`, or null when it is accepted. */
const registrationErrors = (changes: Record<string, unknown>) =>
  errorsOf(registerSchema, { ...REGISTRATION, ...changes });

/** Asserts that a registration with each of `values` as `field` is accepted. */
function assertAccepted(field: string, values: readonly string[]): void {
  for (const value of values) assert.equal(registrationErrors({ [field]: value }), null, value);
}

/** Asserts that a registration with each of `values` as `field` is refused with `key` there. */
function assertRefused(field: string, values: readonly string[], key: string): void {
  for (const value of values) {
    assert.deepEqual(registrationErrors({ [field]: value }), { [field]: key }, value);
  }
}

const FORM = { ...REGISTRATION, confirm_password: "secret1", terms: "on" };

Deno.test("registerSchema accepts a complete registration", () => {
  assert.equal(errorsOf(registerSchema, REGISTRATION), null);
});

Deno.test("registerSchema accepts full names with accented letters and spaces", () => {
  assertAccepted("full_name", [
    "José María Núñez",
    "Ñandú Ölçek",
    "Zoë Brontë",
    "Li",
    "Jürgen Groß",
  ]);
});

Deno.test("registerSchema refuses full names with digits or symbols", () => {
  assertRefused(
    "full_name",
    ["Ana 3", "R2D2", "ana@home", "Ana_Pérez"],
    "validation.full_name_letters",
  );
});

Deno.test("registerSchema needs at least 2 letters in the full name", () => {
  assertRefused("full_name", ["A", " É  "], "validation.full_name_min");
});

Deno.test("registerSchema requires a full name", () => {
  assertRefused("full_name", ["   "], "validation.full_name_required");
  const { full_name: _, ...rest } = REGISTRATION;
  assert.deepEqual(errorsOf(registerSchema, rest), {
    full_name: "validation.full_name_required",
  });
});

Deno.test("registerSchema trims the full name and collapses its spaces", () => {
  // Spaces only: a tab or a line break is a control character, refused (tests/hardening).
  const out = registerSchema.parse({ ...REGISTRATION, full_name: "  Ana    Pérez  " });
  assert.equal(out.full_name, "Ana Pérez");
});

Deno.test("registerSchema accepts +country code plus 8 to 15 digits for MX, US, ES and DE", () => {
  assertAccepted("phone", [
    "+5255123456", // MX, 8 digits
    "+52551234567890", // MX, 12 digits
    "+12025550123", // US, 10 digits
    "+1202555012345678", // US, 15 digits
    "+34612345678", // ES, 9 digits
    "+4915112345678", // DE, 11 digits
    "+52 (55) 1234-5678", // separators are removed
  ]);
});

Deno.test("registerSchema refuses phones with fewer than 8 or more than 15 digits or letters", () => {
  assertRefused("phone", [
    "+521234567", // MX, 7 digits
    "+11234567", // US, 7 digits
    "+341234567", // ES, 7 digits
    "+491234567", // DE, 7 digits
    "+521234567890123456", // MX, 16 digits
    "+12345678901234567", // US, 16 digits
    "+49151abc45678", // letters
    "+52",
    "",
  ], "validation.phone_invalid");
});

Deno.test("registerSchema needs a password of at least 6 characters", () => {
  assertRefused("password", ["12345"], "validation.password_min");
  assertRefused("password", [""], "validation.password_required");
  assertAccepted("password", ["123456"]);
});

Deno.test("registerSchema requires the access code", () => {
  const { accessCode: _, ...rest } = REGISTRATION;
  assert.deepEqual(errorsOf(registerSchema, rest), {
    accessCode: "validation.access_code_required",
  });
  assertRefused("accessCode", ["  "], "validation.access_code_required");
});

Deno.test("registerSchema refuses access codes outside the 8-character alphabet", () => {
  assertRefused(
    "accessCode",
    ["ABCD234", "ABCD23456", "ABCD0123", "ABCDOIJK", "ABCD-234"],
    "validation.access_code_invalid",
  );
});

Deno.test("registerSchema trims and uppercases the access code", () => {
  const out = registerSchema.parse({ ...REGISTRATION, accessCode: "  abcd2345 " });
  assert.equal(out.accessCode, "ABCD2345");
});

Deno.test("registerSchema normalizes the e-mail: lowercase, no whitespace", () => {
  const out = registerSchema.parse({ ...REGISTRATION, email: " Ana.Lopez @Example.COM\n" });
  assert.equal(out.email, "ana.lopez@example.com");
});

Deno.test("registerSchema requires a well-formed e-mail", () => {
  const { email: _, ...rest } = REGISTRATION;
  assert.deepEqual(errorsOf(registerSchema, rest), { email: "validation.email_required" });
  assertRefused("email", ["  "], "validation.email_required");
  assertRefused(
    "email",
    ["ana", "ana@", "@example.com", "ana@example", "ana@@example.com"],
    "validation.email_invalid",
  );
});

Deno.test("registerSchema accepts only the role user", () => {
  const { role: _, ...rest } = REGISTRATION;
  assert.equal(errorsOf(registerSchema, rest), null);
  assertRefused("role", ["admin"], "validation.invalid");
});

Deno.test("registerFormSchema accepts a complete form with the terms ticked", () => {
  assert.equal(errorsOf(registerFormSchema, FORM), null);
});

Deno.test("registerFormSchema gives validation.passwords_mismatch for a different confirmation", () => {
  assert.deepEqual(errorsOf(registerFormSchema, { ...FORM, confirm_password: "secret2" }), {
    confirm_password: "validation.passwords_mismatch",
  });
});

Deno.test("registerFormSchema requires the terms to be accepted", () => {
  const { terms: _, ...rest } = FORM;
  assert.deepEqual(errorsOf(registerFormSchema, rest), { terms: "validation.terms_required" });
  assert.deepEqual(errorsOf(registerFormSchema, { ...FORM, terms: "off" }), {
    terms: "validation.terms_required",
  });
});

Deno.test("registerFormSchema reports the password mismatch together with other errors", () => {
  const { terms: _, ...rest } = FORM;
  assert.deepEqual(errorsOf(registerFormSchema, { ...rest, confirm_password: "other1" }), {
    terms: "validation.terms_required",
    confirm_password: "validation.passwords_mismatch",
  });
});

Deno.test("loginSchema requires the e-mail and the password and normalizes the e-mail", () => {
  assert.deepEqual(errorsOf(loginSchema, {}), {
    email: "validation.email_required",
    password: "validation.password_required",
  });
  const out = loginSchema.parse({ email: " Admin@Example.com ", password: "x" });
  assert.equal(out.email, "admin@example.com");
});

const ACCOUNT = {
  email: "owner@example.com",
  full_name: "Owner One",
  phone: "",
  role: "customer",
  company_name: "Solar SA",
  tax_id: "ABC123",
};

Deno.test("accountCreateSchema requires a password of at least 6 characters", () => {
  assert.deepEqual(errorsOf(accountCreateSchema, ACCOUNT), {
    password: "validation.password_required",
  });
  assert.deepEqual(errorsOf(accountCreateSchema, { ...ACCOUNT, password: "" }), {
    password: "validation.password_required",
  });
  assert.deepEqual(errorsOf(accountCreateSchema, { ...ACCOUNT, password: "12345" }), {
    password: "validation.password_min",
  });
  assert.equal(errorsOf(accountCreateSchema, { ...ACCOUNT, password: "123456" }), null);
});

Deno.test("accountCreateSchema requires the e-mail and the full name", () => {
  assert.deepEqual(errorsOf(accountCreateSchema, { role: "admin", password: "secret1" }), {
    email: "validation.email_required",
    full_name: "validation.full_name_required",
  });
  assert.deepEqual(
    errorsOf(accountCreateSchema, {
      ...ACCOUNT,
      email: "not-an-email",
      full_name: "  ",
      password: "secret1",
    }),
    { email: "validation.email_invalid", full_name: "validation.full_name_required" },
  );
});

Deno.test("accountCreateSchema does not validate phone, company name or tax id", () => {
  const out = accountCreateSchema.parse({
    ...ACCOUNT,
    phone: "call me",
    company_name: null,
    tax_id: undefined,
    password: "secret1",
  });
  assert.equal(out.phone, "call me");
  assert.equal(out.company_name, "");
  assert.equal(out.tax_id, "");
});

Deno.test("accountCreateSchema refuses an unknown role", () => {
  assert.deepEqual(
    errorsOf(accountCreateSchema, { ...ACCOUNT, role: "root", password: "abcdef" }),
    {
      role: "validation.role_invalid",
    },
  );
});

Deno.test("accountUpdateSchema keeps the password optional but at least 6 when given", () => {
  for (const password of [undefined, null, ""]) {
    const out = accountUpdateSchema.parse({ ...ACCOUNT, password });
    assert.equal(out.password, "", String(password));
  }
  assert.deepEqual(errorsOf(accountUpdateSchema, { ...ACCOUNT, password: "12345" }), {
    password: "validation.password_min",
  });
  assert.equal(accountUpdateSchema.parse({ ...ACCOUNT, password: "abcdef" }).password, "abcdef");
});

const PROFILE = {
  email: "me@example.com",
  full_name: "Me Myself",
  phone: "",
  language: "en",
};

/** The field errors of a profile changing the password from "oldpass" to `next`, confirmed. */
const passwordChangeErrors = (next: string, confirm = next) =>
  errorsOf(profileSchema, {
    ...PROFILE,
    current_password: "oldpass",
    new_password: next,
    confirm_password: confirm,
  });

Deno.test("profileSchema accepts a profile without a password change", () => {
  const out = profileSchema.parse(PROFILE);
  assert.equal(out.new_password, "");
  assert.equal(out.current_password, "");
});

Deno.test("profileSchema needs the current password for a new one", () => {
  assert.deepEqual(
    errorsOf(profileSchema, { ...PROFILE, new_password: "newpass1", confirm_password: "newpass1" }),
    { current_password: "validation.current_password_required" },
  );
});

Deno.test("profileSchema needs a matching confirmation of the new password", () => {
  assert.deepEqual(passwordChangeErrors("newpass1", "newpass2"), {
    confirm_password: "validation.passwords_mismatch",
  });
  assert.deepEqual(
    passwordChangeErrors("", "newpass2"),
    { new_password: "validation.password_min", confirm_password: "validation.passwords_mismatch" },
  );
});

Deno.test("profileSchema needs a new password of at least 6 characters", () => {
  assert.deepEqual(passwordChangeErrors("12345"), { new_password: "validation.password_min" });
  assert.equal(passwordChangeErrors("123456"), null);
});

Deno.test("profileSchema refuses a language that is not offered", () => {
  assert.deepEqual(errorsOf(profileSchema, { ...PROFILE, language: "fr" }), {
    language: "validation.language_invalid",
  });
});

Deno.test("accessCodeSchema uppercases the code and refuses ambiguous characters", () => {
  const out = accessCodeSchema.parse({ code: " abcd2345 ", role: "user" });
  assert.equal(out.code, "ABCD2345");
  assert.deepEqual(out.assignments, { stations: [], units: [] });
  assert.deepEqual(errorsOf(accessCodeSchema, { code: "ABCD2340", role: "user" }), {
    code: "validation.access_code_invalid",
  });
  assert.deepEqual(
    errorsOf(accessCodeSchema, {
      code: "ABCD2345",
      role: "user",
      assignments: { units: ["12:unit_1", "bad"] },
    }),
    { assignments: "validation.invalid" },
  );
});

Deno.test("notificationsQuerySchema defaults to active and 50, refuses limits above 50", () => {
  assert.deepEqual(notificationsQuerySchema.parse({}), { status: "active", limit: 50 });
  assert.deepEqual(errorsOf(notificationsQuerySchema, { limit: "51" }), {
    limit: "validation.invalid",
  });
  assert.deepEqual(errorsOf(notificationsQuerySchema, { limit: "0" }), {
    limit: "validation.invalid",
  });
  assert.deepEqual(errorsOf(notificationsQuerySchema, { limit: "abc" }), {
    limit: "validation.invalid",
  });
});

Deno.test("toFieldErrors keeps the first message per field", () => {
  assert.deepEqual(
    toFieldErrors([
      { path: ["email"], message: "validation.email_required" },
      { path: ["email"], message: "validation.email_invalid" },
      { path: ["password"], message: "validation.password_min" },
    ]),
    { email: "validation.email_required", password: "validation.password_min" },
  );
});

Deno.test("toFieldErrors files form-level issues under _ and nested ones under their field", () => {
  assert.deepEqual(
    toFieldErrors([
      { path: [], message: "validation.invalid" },
      { path: ["assignments", "units", 0], message: "validation.invalid" },
    ]),
    { _: "validation.invalid", assignments: "validation.invalid" },
  );
});

Deno.test("toFieldErrors replaces messages that are not locale keys by validation.invalid", () => {
  assert.deepEqual(
    toFieldErrors([{ path: ["limit"], message: "Expected number, received nan" }]),
    { limit: "validation.invalid" },
  );
  assert.deepEqual(toFieldErrors([]), {});
});
