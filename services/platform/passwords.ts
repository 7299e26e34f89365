/**
 * Password hashing with Argon2id at the OWASP-recommended parameters
 * (19 MiB memory, 2 iterations, parallelism 1), in the PHC string format.
 */
import { argon2id, argon2Verify } from "hash-wasm";

/** Hashes a password with a fresh random salt. */
export function hashPassword(password: string): Promise<string> {
  return argon2id({
    password,
    salt: crypto.getRandomValues(new Uint8Array(16)),
    parallelism: 1,
    iterations: 2,
    memorySize: 19456,
    hashLength: 32,
    outputType: "encoded",
  });
}

/** True when `password` matches the stored hash; false for a malformed hash. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (!hash.startsWith("$argon2id$")) return false;
  try {
    return await argon2Verify({ password, hash });
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;

/**
 * Spends the time of one verification against a throw-away hash, so that an unknown
 * e-mail takes as long to reject as a wrong password.
 */
export async function burnVerification(password: string): Promise<void> {
  dummy ??= hashPassword("unused-password-for-timing");
  await verifyPassword(password, await dummy);
}
