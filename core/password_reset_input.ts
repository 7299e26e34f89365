/** The bodies of the password reset calls (issue 28), with the registration's password rules. */
import { z } from "zod";
import { isValidEmail, normalizeEmail } from "./email.ts";
import { registerSchema } from "./schemas.ts";

/** POST /api/auth/forgot-password and the form of /forgot-password. */
export const forgotPasswordSchema = z.object({
  email: z.string({ error: "validation.email_required" }).transform(normalizeEmail).pipe(
    z.string().min(1, "validation.email_required").refine(isValidEmail, "validation.email_invalid"),
  ),
});

/** POST /api/auth/reset-password and the form of /reset-password. */
export const resetPasswordSchema = z.object({
  token: z.string({ error: "messages.reset.invalid_token" }).min(1, "messages.reset.invalid_token")
    .max(200, "messages.reset.invalid_token"),
  password: registerSchema.shape.password,
});
