/**
 * The keys that seal what the portal stores encrypted (device MQTT passwords, sensors'
 * private keys): AES-256-GCM keys derived from the portal's secret by HKDF-SHA-256, one per
 * use (its salt and info), made once per process.
 */

const keys = new Map<string, Promise<CryptoKey>>();

/** The AES-256-GCM key derived from `secret` with `salt` and `info` (cached). */
export function sealingKey(secret: string, salt: string, info: string): Promise<CryptoKey> {
  const id = JSON.stringify([secret, salt, info]);
  let key = keys.get(id);
  if (!key) {
    const bytes = (text: string) => new TextEncoder().encode(text);
    key = crypto.subtle.importKey("raw", bytes(secret), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: bytes(salt), info: bytes(info) },
          base,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        )
      );
    keys.set(id, key);
  }
  return key;
}
