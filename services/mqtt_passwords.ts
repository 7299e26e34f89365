/**
 * MQTT device passwords: PBKDF2-SHA256 through WebCrypto, quick enough for the broker to
 * check every device login (about 20,000 iterations), in the string format
 * `$pbkdf2-sha256$i=<iterations>$<salt base64>$<hash base64>`.
 */
import { encodeBase64 } from "./_base64.ts";

/** Iterations of new hashes. */
export const MQTT_PBKDF2_ITERATIONS = 20_000;

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as Uint8Array<ArrayBuffer>, iterations },
    key,
    256,
  );
  return new Uint8Array(bits);
}

function decodeBase64(s: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Hashes an MQTT password with a fresh random salt. */
export async function hashMqttPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, MQTT_PBKDF2_ITERATIONS);
  return `$pbkdf2-sha256$i=${MQTT_PBKDF2_ITERATIONS}$${encodeBase64(salt)}$${encodeBase64(hash)}`;
}

/** True when `password` matches a hash made by {@link hashMqttPassword}; false if malformed. */
export async function verifyMqttPassword(password: string, stored: string): Promise<boolean> {
  const m = /^\$pbkdf2-sha256\$i=(\d{1,7})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored);
  if (!m) return false;
  const iterations = Number(m[1]);
  const salt = decodeBase64(m[2]);
  const want = decodeBase64(m[3]);
  if (!salt || !want || iterations < 1 || want.length !== 32) return false;
  const got = await derive(password, salt, iterations);
  let diff = 0;
  for (let i = 0; i < want.length; i++) diff |= want[i] ^ got[i];
  return diff === 0;
}
