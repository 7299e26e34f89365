/**
 * The local sandbox's state on disk (test mode): its merchant, key, address and charges in one
 * JSON file under the data folder, so that a restarted portal (or `deno task openpay-sandbox
 * pay`) finds the references it handed out. Each save writes a file beside it and renames it
 * over the old one: a crash leaves the old state or the new one, never half a file. Saves run
 * one after another, the latest state last.
 */

/** What the sandbox keeps. */
export interface SandboxState {
  merchant_id: string;
  private_key: string;
  /** The address it last listened on (for the `pay` command). */
  url: string | null;
  /** Its charges, oldest first. */
  charges: Record<string, unknown>[];
}

/** The file of the sandbox's state in a data folder. */
export function sandboxStateFile(dataDir: string): string {
  return `${dataDir.replace(/\/+$/, "") || "."}/openpay_sandbox.json`;
}

/** The state kept in `file`, or null when there is none (or it is not a sandbox's state). */
export async function readSandboxState(file: string): Promise<SandboxState | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
  try {
    const v = JSON.parse(text);
    if (
      !v || typeof v.merchant_id !== "string" || typeof v.private_key !== "string" ||
      !Array.isArray(v.charges)
    ) return null;
    return {
      merchant_id: v.merchant_id,
      private_key: v.private_key,
      url: typeof v.url === "string" ? v.url : null,
      charges: v.charges.filter((c: unknown) =>
        !!c && typeof c === "object" && typeof (c as { id?: unknown }).id === "string"
      ),
    };
  } catch {
    return null;
  }
}

/** Writes `state` to `file` atomically (a file beside it, renamed over it). */
export async function writeSandboxState(file: string, state: SandboxState): Promise<void> {
  const tmp = `${file}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(tmp, JSON.stringify(state));
    await Deno.rename(tmp, file);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/** Saves one after another: each call's state is written after the previous one's. */
export function stateSaver(file: string): (state: SandboxState) => Promise<void> {
  let last: Promise<void> = Promise.resolve();
  return (state) => {
    const next = last.catch(() => {}).then(() => writeSandboxState(file, state));
    last = next;
    return next;
  };
}
