/** E-mail rules shared by the server, the forms and the islands. */

const EMAIL_PATTERN =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/**
 * Normalizes an e-mail address as the spec says: lowercased, trimmed and with every
 * whitespace character removed.
 */
export function normalizeEmail(raw: string): string {
  return raw.toLowerCase().replace(/\s+/g, "");
}

/** True when the (already normalized) address matches a standard e-mail pattern. */
export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL_PATTERN.test(email);
}
