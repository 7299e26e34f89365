/**
 * What a new password may not be: one of the most common passwords, one character repeated
 * (`aaaaaa`, `AaAaAa`), or the account's e-mail address (or the part before the @). Case and
 * surrounding spaces do not matter.
 */

/** The most common passwords of public breach lists (at least 6 characters). */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  "123456",
  "1234567",
  "12345678",
  "123456789",
  "1234567890",
  "654321",
  "111111",
  "000000",
  "222222",
  "555555",
  "666666",
  "777777",
  "888888",
  "999999",
  "121212",
  "123123",
  "112233",
  "123321",
  "159753",
  "147258369",
  "987654321",
  "qwerty",
  "qwerty123",
  "qwertyuiop",
  "asdfgh",
  "asdfghjkl",
  "zxcvbnm",
  "1q2w3e4r",
  "1qaz2wsx",
  "qazwsx",
  "password",
  "password1",
  "password123",
  "passw0rd",
  "p@ssw0rd",
  "abc123",
  "abcdef",
  "abcd1234",
  "iloveyou",
  "monkey",
  "dragon",
  "master",
  "letmein",
  "welcome",
  "sunshine",
  "princess",
  "football",
  "baseball",
  "shadow",
  "superman",
  "trustno1",
  "starwars",
  "computer",
  "freedom",
  "whatever",
  "michael",
  "jordan23",
  "hello123",
  "admin123",
  "administrator",
  "contraseña",
  "contrasena",
  "passwort",
  "hallo123",
  "teamo",
  "tequiero",
  "mexico",
  "123456a",
  "a123456",
  "secreto",
  "qwertz",
]);

/** The locale key of what is wrong with `password` for the account `email`, or null. */
export function passwordProblem(password: string, email: string): string | null {
  const p = password.trim().toLowerCase();
  if (COMMON_PASSWORDS.has(p)) return "validation.password_common";
  if (new Set(password.toLowerCase()).size <= 1) return "validation.password_repeated";
  const e = email.trim().toLowerCase();
  if (e !== "" && (p === e || p === e.split("@")[0])) return "validation.password_is_email";
  return null;
}
