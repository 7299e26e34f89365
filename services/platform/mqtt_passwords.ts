/**
 * MQTT device passwords: PBKDF2-SHA256 through WebCrypto, quick enough for the broker to
 * check every device login (about 20,000 iterations), in the string format
 * `$pbkdf2-sha256$i=<iterations>$<salt base64>$<hash base64>`.
 *
 * Besides the hash, the password is kept sealed so that the portal can hand it to an
 * external broker (Mosquitto's dynamic-security plugin) and connect as the device (Test
 * MQTT Connection): AES-256-GCM with a key derived from the portal's secret by HKDF-SHA256,
 * a random 96-bit IV per seal, in the format `v1.<iv base64>.<ciphertext and tag base64>`.
 */
import { encodeBase64 } from "./_base64.ts";
import { sealingKey } from "./_sealing_key.ts";

/** Iterations of new hashes. */
const MQTT_PBKDF2_ITERATIONS = 20_000;

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

// ---- sealed passwords ------------------------------------------------------------------------

/** Version tag of sealed passwords made now. */
const SEALED_VERSION = "v1";
const SEAL_AAD = new TextEncoder().encode("mqtt-password:v1");

/** The AES-GCM key of sealed passwords, derived from `secret`. */
const sealKey = (secret: string) =>
  sealingKey(secret, "energy-portal/mqtt-password-seal", "aes-256-gcm v1");

/** Seals an MQTT password with a key derived from `secret` (the portal's secret). */
export async function sealMqttPassword(secret: string, password: string): Promise<string> {
  if (!secret) throw new TypeError("sealMqttPassword() needs a non-empty secret");
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: SEAL_AAD },
    await sealKey(secret),
    new TextEncoder().encode(password),
  );
  return `${SEALED_VERSION}.${encodeBase64(iv)}.${encodeBase64(new Uint8Array(data))}`;
}

/**
 * Opens a password sealed by {@link sealMqttPassword}; null when it is malformed, of an
 * unknown version, altered, or sealed under another secret.
 */
export async function openMqttPassword(secret: string, sealed: string): Promise<string | null> {
  const m = /^v1\.([A-Za-z0-9+/=]{16})\.([A-Za-z0-9+/=]{24,})$/.exec(sealed);
  if (!m || !secret) return null;
  const iv = decodeBase64(m[1]);
  const data = decodeBase64(m[2]);
  if (!iv || !data || iv.length !== 12) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: iv as Uint8Array<ArrayBuffer>, additionalData: SEAL_AAD },
      await sealKey(secret),
      data as Uint8Array<ArrayBuffer>,
    );
    return new TextDecoder("utf-8", { fatal: true }).decode(plain);
  } catch {
    return null;
  }
}
