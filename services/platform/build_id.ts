/**
 * The build a portal process runs, for the ETags of its pages: a hash of the code and texts
 * that draw them (the source folders and the locales), the same in every process started from
 * the same files, so replicas agree and a new release changes every tag. Where the files
 * cannot be read (a compiled binary), a random id of this process.
 */

/** The folders whose files make a page (relative to the project's root). */
const SOURCES = ["routes", "components", "services", "core", "db", "islands", "locales"];

let built: Promise<string> | null = null;

/** The build id (computed once per process). */
export function buildId(): Promise<string> {
  built ??= hashSources().catch(() => crypto.randomUUID());
  return built;
}

async function hashSources(): Promise<string> {
  const root = new URL("../../", import.meta.url);
  const files: string[] = [];
  const walk = async (dir: URL, rel: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = `${rel}/${e.name}`;
      if (e.isDirectory) await walk(new URL(`${e.name}/`, dir), path);
      else if (e.isFile) files.push(path);
    }
  };
  for (const s of SOURCES) await walk(new URL(`${s}/`, root), s);
  files.sort();
  const hash = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(
      (await Promise.all(files.map(async (f) => {
        const bytes = await Deno.readFile(new URL(f, root));
        const h = await crypto.subtle.digest("SHA-256", bytes);
        return `${f}:${hex(h)}`;
      }))).join("\n"),
    ),
  );
  return hex(hash).slice(0, 24);
}

/** Lower-case hexadecimal of bytes. */
export function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
