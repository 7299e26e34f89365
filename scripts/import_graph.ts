/**
 * The import graph of the repository's own source files, its circles and the layer rules of
 * ARCHITECTURE.md's table. `deno run -A scripts/import_graph.ts` prints both;
 * `tests/architecture_test.ts` asserts there are none.
 *
 * Imports are read from the source text by hand: `deno info` follows one root at a time and
 * resolves the whole npm tree, while this needs every file (tests and scripts too) and whether an
 * import is type-only, both plain in deno fmt's layout (declarations start at column 0).
 */
interface Edge {
  /** a repository file (`core/bill.ts`) or a bare specifier (`react`, `node:fs`) */
  to: string;
  /** `import type` or `export type`: nothing of it is left at run time */
  typeOnly: boolean;
}

export type ImportGraph = Map<string, Edge[]>;

const SKIPPED = new Set(["node_modules", "static", "data", "dist", ".tools", ".build", ".git"]);

const DECLARATION =
  /^(import|export)\s+(type\s+)?(?:[\w$]+\s*,?\s*)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})?\s*from\s+"([^"]+)"/gm;
const SIDE_EFFECT = /^import\s+"([^"]+)"/gm;
const DYNAMIC = /\bimport\(\s*"([^"]+)"\s*\)/g;

export function importsOf(source: string): { specifier: string; typeOnly: boolean }[] {
  const found: { specifier: string; typeOnly: boolean }[] = [];
  for (const m of source.matchAll(DECLARATION)) {
    found.push({ specifier: m[3], typeOnly: m[2] !== undefined });
  }
  for (const m of source.matchAll(SIDE_EFFECT)) found.push({ specifier: m[1], typeOnly: false });
  for (const m of source.matchAll(DYNAMIC)) found.push({ specifier: m[1], typeOnly: false });
  return found;
}

async function* sourceFiles(root: URL, dir = ""): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(new URL(dir, root))) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) {
      if (!SKIPPED.has(entry.name)) yield* sourceFiles(root, `${path}/`);
    } else if (/\.tsx?$/.test(entry.name)) {
      yield path;
    }
  }
}

export const REPOSITORY = new URL("../", import.meta.url);

/** A relative specifier as a repository path: `../core/bill.ts` from `db/bills.ts` is `core/bill.ts`. */
function resolve(file: string, specifier: string): string {
  return new URL(specifier, `file:///${file}`).pathname.slice(1);
}

/** Every .ts/.tsx file of the repository and what it imports (relative paths resolved). */
export async function importGraph(root: URL = REPOSITORY): Promise<ImportGraph> {
  const graph: ImportGraph = new Map();
  for await (const file of sourceFiles(root)) {
    const source = await Deno.readTextFile(new URL(file, root));
    graph.set(
      file,
      importsOf(source).map(({ specifier, typeOnly }) => ({
        to: specifier.startsWith(".") ? resolve(file, specifier) : specifier,
        typeOnly,
      })),
    );
  }
  return graph;
}

/** Files, tests excluded: what the layer rules and the no-circle rule speak of. */
export function isSource(file: string): boolean {
  return !file.startsWith("tests/") && !/_test\.tsx?$/.test(file);
}

/** The circles: each strongly connected component of more than one file (or a file importing
 * itself), sorted, over the source files only. Tarjan's algorithm. */
export function circles(graph: ImportGraph): string[][] {
  const files = [...graph.keys()].filter(isSource).sort();
  const next = (f: string) =>
    [...new Set((graph.get(f) ?? []).map((e) => e.to))].filter((t) => graph.has(t) && isSource(t));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next(v).includes(v)) found.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The top folder of a repository file (`core`, `services`, …), or `main.ts` itself. */
function layerOf(file: string): string {
  return file.includes("/") ? file.slice(0, file.indexOf("/")) : file;
}

/**
 * ARCHITECTURE.md's table: which folders a folder's files may import (its own always). A
 * component may import only the types of services. Packages are not limited here.
 */
const MAY_IMPORT: Record<string, string[]> = {
  core: [],
  db: ["core"],
  ingest: ["core", "db"],
  services: ["core", "db", "ingest"],
  routes: ["services", "core", "components", "islands"],
  components: ["core", "islands"],
  islands: ["core"],
};

/**
 * What `services/platform/` (infrastructure) may use of the other services: the `Deps` it is
 * given and the refusal it throws; no use case.
 */
const PLATFORM_USES = new Set(["services/deps.ts", "services/refusal.ts"]);

/** Plain markup components an island may draw (ARCHITECTURE.md, below the table). */
const ISLAND_MARKUP = new Set(["components/zones/NumberField.tsx", "components/Field.tsx"]);

interface Violation {
  from: string;
  to: string;
}

/** Each import of a source file that its folder's row of the table does not allow. */
export function layerViolations(graph: ImportGraph): Violation[] {
  const found: Violation[] = [];
  for (const [from, edges] of graph) {
    const layer = layerOf(from);
    const allowed = MAY_IMPORT[layer];
    if (!allowed || !isSource(from)) continue;
    for (const { to, typeOnly } of edges) {
      if (!graph.has(to)) continue;
      const target = layerOf(to);
      if (
        from.startsWith("services/platform/") && target === "services" &&
        !to.startsWith("services/platform/") && !PLATFORM_USES.has(to)
      ) {
        found.push({ from, to });
        continue;
      }
      if (target === layer || allowed.includes(target)) continue;
      if (layer === "components" && target === "services" && typeOnly) continue;
      if (layer === "islands" && ISLAND_MARKUP.has(to)) continue;
      found.push({ from, to });
    }
  }
  return found.sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

/** The circles and the violations, one a line. */
function report(graph: ImportGraph): string {
  const found = circles(graph);
  const violations = layerViolations(graph);
  return [
    `${graph.size} files; ${found.length} import circles`,
    ...found.map((c) => `  circle (${c.length}): ${c.join(" ")}`),
    `${violations.length} layer violations`,
    ...violations.map((v) => `  ${v.from} → ${v.to}`),
  ].join("\n");
}

if (import.meta.main) {
  Deno.stdout.writeSync(new TextEncoder().encode(report(await importGraph()) + "\n"));
}
