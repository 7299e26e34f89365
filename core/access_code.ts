/**
 * Access codes for self-registration: 8 characters drawn from a 32-symbol alphabet
 * without the ambiguous characters 0, O, 1 and I.
 */

/** The 32 symbols an access code is made of (no 0, O, 1 or I). */
export const ACCESS_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Length of every access code. */
export const ACCESS_CODE_LENGTH = 8;

/**
 * Builds an access code from random bytes. Each byte picks one symbol; because the
 * alphabet has 32 symbols (a power of two), `byte % 32` is unbiased.
 */
export function accessCodeFromBytes(bytes: Uint8Array): string {
  if (bytes.length < ACCESS_CODE_LENGTH) {
    throw new RangeError(
      `accessCodeFromBytes() needs ${ACCESS_CODE_LENGTH} random bytes, got ${bytes.length}`,
    );
  }
  let code = "";
  for (let i = 0; i < ACCESS_CODE_LENGTH; i++) {
    code += ACCESS_CODE_ALPHABET[bytes[i] % ACCESS_CODE_ALPHABET.length];
  }
  return code;
}

/** Uppercases and trims a typed code, so that "  abcd2345 " is accepted as "ABCD2345". */
export function normalizeAccessCode(raw: string): string {
  return raw.trim().toUpperCase();
}

/** True when `code` has the right length and only symbols of the alphabet. */
export function isValidAccessCode(code: string): boolean {
  if (code.length !== ACCESS_CODE_LENGTH) return false;
  for (const ch of code) if (!ACCESS_CODE_ALPHABET.includes(ch)) return false;
  return true;
}

/** A station that a customer code can assign. */
export interface StationOption {
  id: number;
  label: string;
}

/** A unit (with a sensor) that a tenant code can assign; `value` is `sensorId:unitId`. */
export interface UnitOption {
  value: string;
  label: string;
}
