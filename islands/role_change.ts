/** The warning a role change on the account form deserves (server and browser alike). */

/** Which warning a role change deserves, or null when the role is unchanged. */
export function roleChangeWarning(
  original: string | null,
  role: string,
): "toUser" | "toCustomer" | "other" | null {
  if (original === null || original === role) return null;
  if (original === "customer" && role === "user") return "toUser";
  if (original === "user" && role === "customer") return "toCustomer";
  return "other";
}
