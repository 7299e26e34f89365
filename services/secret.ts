/** The token-signing secret: from the configuration, or generated once into the data folder. */
import { encodeBase64 } from "./_base64.ts";

/** Reads `<dataDir>/secret.key`, creating it (readable by the owner only) when missing. */
export async function loadOrCreateSecret(dataDir: string): Promise<string> {
  const path = `${dataDir}/secret.key`;
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
