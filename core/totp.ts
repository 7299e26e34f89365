/**
 * The second factor's rules: TOTP's parameters (RFC 6238: SHA-1, 6 digits, 30-second steps;
 * computed by `services/platform/totp.ts` with the `otpauth` library), one step of clock skew
 * either way, the single-use recovery codes' shape, and the inputs' schemas. Pure: the time
 * and the random bytes of a recovery code are parameters.
 */
import { z } from "zod";
import { loginSchema } from "./schemas.ts";

/** Seconds per TOTP step. */
export const TOTP_PERIOD = 30;
/** Digits of a code. */
export const TOTP_DIGITS = 6;
/** Steps of clock skew accepted either way. */
export const TOTP_WINDOW = 1;
/** Recovery codes made when the factor is turned on. */
export const RECOVERY_CODES = 10;
/** The alphabet of recovery codes (no 0/O, 1/I/L). */
const RECOVERY_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/** The step (counter) of an instant (epoch ms). */
export function stepAt(now: number): number {
  return Math.floor(now / 1000 / TOTP_PERIOD);
}

/** A recovery code from 8 random bytes: `XXXX-XXXX`. */
export function recoveryCodeOf(bytes: Uint8Array): string {
  const chars = [...bytes.slice(0, 8)].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]);
  return `${chars.slice(0, 4).join("")}-${chars.slice(4).join("")}`;
}

/** A typed recovery code as stored: upper case, the dash where it belongs. */
export function normalizeRecovery(text: string): string | null {
  const raw = text.toUpperCase().replace(/[^A-Z0-9]/g, "");
  if (raw.length !== 8 || [...raw].some((c) => !RECOVERY_ALPHABET.includes(c))) return null;
  return `${raw.slice(0, 4)}-${raw.slice(4)}`;
}

/** What a second step's code is: six digits, or a recovery code. */
export function codeKind(text: string): "totp" | "recovery" | null {
  const t = text.replace(/\s/g, "");
  if (/^\d{6}$/.test(t)) return "totp";
  return normalizeRecovery(t) ? "recovery" : null;
}

/** A code as typed: six digits or a recovery code (spaces ignored). */
export const secondFactorCode = z.string({ error: "second_factor.errors.code_required" })
  .transform((s) => s.replace(/\s/g, ""))
  .pipe(
    z.string().min(1, "second_factor.errors.code_required").max(
      20,
      "second_factor.errors.code_invalid",
    ),
  );

/** The second step of a sign-in: the challenge the first step answered and the code. */
export const secondStepSchema = z.object({
  challenge: z.string({ error: "second_factor.errors.challenge_expired" }).min(10).max(2000),
  code: secondFactorCode,
});

/** Turning the factor on or off: the code shown by the app now. */
export const factorCodeSchema = z.object({ code: secondFactorCode });

/**
 * `POST /auth/login`'s body: e-mail and password, and `totp_code` (six digits, or a recovery
 * code) for an account with a second factor.
 */
export const apiLoginSchema = loginSchema.extend({ totp_code: secondFactorCode.optional() });
