/**
 * Builds the browser assets into `static/build/` (or `--out DIR`): one module per island
 * with shared chunks (a plain-script island is one file without React), the stylesheet with
 * the self-hosted variable Inter font (Latin, weights 400-700, one woff2 file cut by
 * `scripts/subset_font.ts`), hashed file names,
 * and `manifest.json`. `--dev` builds React's development version, unminified.
 */
import * as esbuild from "esbuild";
import { type IslandName, ISLANDS, PLAIN_ISLANDS } from "../islands/mod.ts";
import { subsetInter } from "./subset_font.ts";
import type { Manifest } from "../components/assets.ts";

/** Options of a build. */
interface BuildOptions {
  dev: boolean;
  outDir: URL;
}

const root = new URL("../", import.meta.url);

/**
 * The rules every page shares, in cascade order: the public stylesheet, and the middle of the
 * signed-in one. Files under static/styles/: `base/` the font, tokens, elements and page frame,
 * `kit/` the rules of a component of components/kit/.
 */
const SHARED_STYLES = [
  "base/font.css",
  "base/tokens.css",
  "base/elements.css",
  "base/buttons.css",
  "base/shell.css",
  "kit/page-header.css",
  "kit/card.css",
  "base/page-parts.css",
  "kit/search-form.css",
  "base/tables.css",
  "kit/status-badge.css",
  "base/forms.css",
  "base/alerts.css",
  "base/auth.css",
  "base/modals.css",
  "base/notifications.css",
  "base/error-page.css",
  "base/access-code.css",
] as const;

/**
 * The stylesheets built as their own files, each the concatenation of its files under
 * static/styles/ in this order, which is the cascade's (a later rule wins over an earlier one of
 * the same specificity: keep the order when moving rules). `app` (signed-in pages): the list
 * kit parts and the tenant, owner, payment and finance areas, the shared rules, then the other
 * areas (`areas/`) and the signed-in frame's parts (`frame/`). `public` (pages without the
 * signed-in frame): the shared rules alone. `charts`: uPlot's rules, for chart pages. Every file
 * under static/styles/ is in at least one list (the build checks it).
 */
export const STYLESHEETS = {
  app: [
    "kit/responsive-list.css",
    "kit/pager.css",
    "areas/tenant.css",
    "areas/owner.css",
    "areas/payments.css",
    "areas/finances.css",
    "areas/cfe-bill.css",
    ...SHARED_STYLES,
    "areas/users.css",
    "frame/contact.css",
    "areas/devices.css",
    "areas/dashboard.css",
    "kit/facts.css",
    "areas/zones.css",
    "areas/sensor.css",
    "frame/sidebar.css",
    "areas/billing.css",
    "areas/invoices.css",
    "areas/reports.css",
    "areas/sensor-connection.css",
    "areas/ingest-health.css",
    "frame/notification-bell.css",
    "areas/alerts.css",
  ],
  public: [...SHARED_STYLES],
  charts: ["charts.css"],
} as const satisfies Record<string, readonly string[]>;

/** The name of a stylesheet built as its own file. */
export type StylesheetName = keyof typeof STYLESHEETS;

/**
 * What is wrong with the stylesheets' lists against the files under static/styles/ (paths
 * relative to it): a file in no list, a listed file that does not exist, a file listed twice in
 * one stylesheet. Empty when the lists are right.
 */
export function stylesheetListProblems(
  files: readonly string[],
  lists: Record<string, readonly string[]> = STYLESHEETS,
): string[] {
  const problems: string[] = [];
  const listed = new Set(Object.values(lists).flat());
  for (const f of files) if (!listed.has(f)) problems.push(`${f} is in no stylesheet`);
  for (const f of listed) if (!files.includes(f)) problems.push(`${f} does not exist`);
  for (const [name, parts] of Object.entries(lists)) {
    for (const f of new Set(parts.filter((p, i) => parts.indexOf(p) !== i))) {
      problems.push(`${f} is listed twice in ${name}`);
    }
  }
  return problems;
}

/** The .css files under static/styles/, as paths relative to it. */
export async function styleFiles(dir = new URL("static/styles/", root)): Promise<string[]> {
  const files: string[] = [];
  const walk = async (sub: string) => {
    for await (const e of Deno.readDir(new URL(sub, dir))) {
      if (e.isDirectory) await walk(`${sub}${e.name}/`);
      else if (e.name.endsWith(".css")) files.push(`${sub}${e.name}`);
    }
  };
  await walk("");
  return files.sort();
}

/** Writes each stylesheet's entry (its files' `@import`s, in order) into `dir`. */
async function writeStyleEntries(dir: URL): Promise<Record<StylesheetName, string>> {
  const problems = stylesheetListProblems(await styleFiles());
  if (problems.length) throw new Error(`the stylesheets' lists are wrong: ${problems.join("; ")}`);
  const entries = {} as Record<StylesheetName, string>;
  for (
    const [name, parts] of Object.entries(STYLESHEETS) as [StylesheetName, readonly string[]][]
  ) {
    const file = new URL(`${name}.css`, dir);
    await Deno.writeTextFile(
      file,
      parts.map((p) => `@import "../../static/styles/${p}";\n`).join(""),
    );
    entries[name] = file.pathname;
  }
  return entries;
}

/** Runs the build and writes the manifest; returns it. */
async function build(opts: BuildOptions) {
  const entriesDir = new URL(".build/entries/", root);
  await Deno.mkdir(entriesDir, { recursive: true });
  await Deno.remove(opts.outDir, { recursive: true }).catch(() => {});
  await Deno.mkdir(opts.outDir, { recursive: true });
  // The stylesheet names the cut font in `.build/fonts/`; it must exist before bundling.
  await subsetInter();
  const reactEntries: Record<string, string> = {};
  const plainEntries: Record<string, string> = {};
  for (const name of Object.keys(ISLANDS) as IslandName[]) {
    const file = new URL(`${name}.ts`, entriesDir);
    const plain = PLAIN_ISLANDS.has(name);
    await Deno.writeTextFile(
      file,
      plain
        ? `import { mount } from "../../islands/${name}.client.ts";\n` +
          `import { mountIslands } from "../../islands/_mount.ts";\n` +
          `mountIslands(${JSON.stringify(name)}, mount as never);\n`
        : `import Island from "../../islands/${name}.tsx";\n` +
          `import { hydrateIslands } from "../../islands/_hydrate.ts";\n` +
          `hydrateIslands(${JSON.stringify(name)}, Island as never);\n`,
    );
    (plain ? plainEntries : reactEntries)[name] = file.pathname;
  }
  const entryPoints = { ...reactEntries, ...plainEntries };
  const jsOptions = {
    bundle: true,
    format: "esm",
    target: "es2022",
    minify: !opts.dev,
    sourcemap: opts.dev ? "inline" : false,
    jsx: "automatic",
    jsxImportSource: "react",
    define: { "process.env.NODE_ENV": JSON.stringify(opts.dev ? "development" : "production") },
    outdir: opts.outDir.pathname,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    metafile: true,
    absWorkingDir: root.pathname,
    logLevel: "warning",
  } satisfies esbuild.BuildOptions;
  try {
    // React islands share chunks (React itself, uPlot); each plain island is one small file.
    const react = await esbuild.build({ ...jsOptions, entryPoints: reactEntries, splitting: true });
    const plain = await esbuild.build({ ...jsOptions, entryPoints: plainEntries });
    const js = {
      metafile: { inputs: {}, outputs: { ...react.metafile.outputs, ...plain.metafile.outputs } },
    };
    const css = await esbuild.build({
      entryPoints: await writeStyleEntries(entriesDir),
      bundle: true,
      minify: !opts.dev,
      outdir: opts.outDir.pathname,
      entryNames: "[name]-[hash]",
      assetNames: "fonts/[name]-[hash]",
      loader: { ".woff2": "file", ".woff": "file" },
      metafile: true,
      absWorkingDir: root.pathname,
      logLevel: "warning",
    });
    const outBase = opts.outDir.pathname.replace(/\/$/, "");
    const rel = (p: string) => {
      const abs = p.startsWith("/") ? p : root.pathname + p;
      return abs.slice(outBase.length + 1);
    };
    const islands: Record<string, { file: string; imports: string[] }> = {};
    for (const [out, meta] of Object.entries(js.metafile.outputs)) {
      if (!meta.entryPoint) continue;
      const name = Object.keys(entryPoints).find((n) =>
        meta.entryPoint!.endsWith(`.build/entries/${n}.ts`)
      );
      if (!name) continue;
      islands[name] = {
        file: rel(out),
        imports: meta.imports.filter((i) => i.kind === "import-statement").map((i) => rel(i.path)),
      };
    }
    assertPlainWithoutReact(js.metafile, islands, rel);
    const cssOf = (name: StylesheetName) => {
      const out = Object.entries(css.metafile.outputs)
        .find(([, m]) => m.entryPoint?.endsWith(`.build/entries/${name}.css`))?.[0];
      if (!out) throw new Error(`the stylesheet ${name}.css was not built`);
      return rel(out);
    };
    const manifest: Manifest = {
      css: cssOf("app"),
      publicCss: cssOf("public"),
      chartsCss: cssOf("charts"),
      islands,
    };
    await Deno.writeTextFile(
      new URL("manifest.json", opts.outDir),
      JSON.stringify(manifest, null, 2),
    );
    return manifest;
  } finally {
    await esbuild.stop();
  }
}

/** Fails the build when a plain-script island's module or its chunks bundle React. */
function assertPlainWithoutReact(
  metafile: esbuild.Metafile,
  islands: Record<string, { file: string; imports: string[] }>,
  rel: (p: string) => string,
) {
  const byFile = new Map(Object.entries(metafile.outputs).map(([out, m]) => [rel(out), m]));
  for (const name of PLAIN_ISLANDS) {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const meta = byFile.get(file);
      const react = Object.keys(meta?.inputs ?? {}).find((i) => /node_modules\/.*react/.test(i));
      if (react) throw new Error(`the plain island ${name} bundles React (${react}) in ${file}`);
      for (const i of meta?.imports ?? []) if (i.kind === "import-statement") visit(rel(i.path));
    };
    visit(islands[name].file);
  }
}

if (import.meta.main) {
  const dev = Deno.args.includes("--dev");
  const outIdx = Deno.args.indexOf("--out");
  const outDir = outIdx >= 0
    ? new URL(Deno.args[outIdx + 1].replace(/\/?$/, "/"), `file://${Deno.cwd()}/`)
    : new URL("static/build/", root);
  const manifest = await build({ dev, outDir });
  // deno-lint-ignore no-console
  console.log(
    `built ${
      Object.keys(manifest.islands).length
    } islands and ${manifest.css} into ${outDir.pathname}`,
  );
}
