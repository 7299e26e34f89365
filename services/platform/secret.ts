/** Secrets generated once into the data folder (readable by the owner only). */
import { encodeBase64 } from "./_base64.ts";

/**
 * Reads `<dataDir>/<name>`, creating it with 48 random bytes (base64) when missing. Used
 * for the token-signing secret (`secret.key`) and the embedded broker's ingest password.
 */
export async function loadOrCreateSecret(dataDir: string, name = "secret.key"): Promise<string> {
  const path = `${dataDir}/${name}`;
  try {
    const s = (await Deno.readTextFile(path)).trim();
    if (s.length >= 32) return s;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const secret = encodeBase64(crypto.getRandomValues(new Uint8Array(48)));
  await Deno.writeTextFile(path, secret + "\n", { mode: 0o600 });
  return secret;
}
