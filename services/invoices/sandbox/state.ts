/**
 * The Facturapi sandbox's invoices on disk (test mode): one JSON file in the data folder,
 * written to a file beside it and renamed over it (a crash leaves the old list or the new one),
 * one save after another.
 */

/** The file of the sandbox's invoices in a data folder. */
export function facturapiStateFile(dataDir: string): string {
  return `${dataDir.replace(/\/+$/, "") || "."}/facturapi_sandbox.json`;
}

/** The invoices kept in `file`, or null when there are none. */
export async function readJsonState(file: string): Promise<Record<string, unknown>[] | null> {
  try {
    const v = JSON.parse(await Deno.readTextFile(file));
    return Array.isArray(v) ? v.filter((x) => x && typeof x.id === "string") : null;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof SyntaxError) return null;
    throw e;
  }
}

let last: Promise<void> = Promise.resolve();

/** Writes `rows` to `file` atomically, after any save under way. */
export function writeJsonState<T>(file: string, rows: T[]): Promise<void> {
  const text = JSON.stringify(rows);
  const next = last.catch(() => {}).then(async () => {
    const tmp = `${file}.${crypto.randomUUID()}.tmp`;
    try {
      await Deno.writeTextFile(tmp, text);
      await Deno.rename(tmp, file);
    } catch (e) {
      await Deno.remove(tmp).catch(() => {});
      throw e;
    }
  });
  last = next;
  return next;
}
