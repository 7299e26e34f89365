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
 * The stylesheets under static/styles/ built as their own files: app (signed-in pages),
 * public (pages without the signed-in frame) and charts (uPlot's rules, for chart pages).
 */
const STYLESHEETS = ["app", "public", "charts"] as const;

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
      entryPoints: Object.fromEntries(
        STYLESHEETS.map((name) => [name, new URL(`static/styles/${name}.css`, root).pathname]),
      ),
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
    const cssOf = (name: string) => {
      const out = Object.entries(css.metafile.outputs)
        .find(([, m]) => m.entryPoint?.endsWith(`static/styles/${name}.css`))?.[0];
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
