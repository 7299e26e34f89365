/**
 * TOTP codes (RFC 6238) with the `otpauth` library, on `core/totp.ts`'s parameters: the code of
 * a secret at a time, the URI an authenticator app scans, and which step a typed code matches
 * (one step of skew either way, never a step already used).
 */
import { Secret, TOTP } from "otpauth";
import { stepAt, TOTP_DIGITS, TOTP_PERIOD, TOTP_WINDOW } from "../../core/totp.ts";

const totp = (secret: string, label = "", issuer = "") =>
  new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
  });

/** The code of `secret` (base32) at `now`: what an authenticator app shows then. */
export function codeAt(secret: string, now: number): string {
  return totp(secret).generate({ timestamp: now });
}

/** The `otpauth://` URI an authenticator app scans (in the QR code). */
export function otpauthUri(secret: string, account: string, issuer: string): string {
  return totp(secret, account, issuer).toString();
}

/**
 * The step a code matches at `now`, within {@link TOTP_WINDOW} steps either way; null when it
 * matches none, or only a step at or before `lastStep` (a code used once is refused after).
 */
export function matchedStep(
  secret: string,
  code: string,
  now: number,
  lastStep: number | null,
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return null;
  const step = stepAt(now) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}
