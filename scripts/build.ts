/**
 * Builds the browser assets into `static/build/` (or `--out DIR`): one module per island
 * with shared chunks, the stylesheet with the self-hosted Inter font, hashed file names,
 * and `manifest.json`. `--dev` builds React's development version, unminified.
 */
import * as esbuild from "esbuild";
import { ISLANDS } from "../islands/mod.ts";

/** Options of a build. */
export interface BuildOptions {
  dev: boolean;
  outDir: URL;
}

const root = new URL("../", import.meta.url);

/** Runs the build and writes the manifest; returns it. */
export async function build(opts: BuildOptions) {
  const entriesDir = new URL(".build/entries/", root);
  await Deno.mkdir(entriesDir, { recursive: true });
  await Deno.remove(opts.outDir, { recursive: true }).catch(() => {});
  await Deno.mkdir(opts.outDir, { recursive: true });
  const entryPoints: Record<string, string> = {};
  for (const name of Object.keys(ISLANDS)) {
    const file = new URL(`${name}.ts`, entriesDir);
    await Deno.writeTextFile(
      file,
      `import Island from "../../islands/${name}.tsx";\n` +
        `import { hydrateIslands } from "../../islands/_hydrate.ts";\n` +
        `hydrateIslands(${JSON.stringify(name)}, Island as never);\n`,
    );
    entryPoints[name] = file.pathname;
  }
  try {
    const js = await esbuild.build({
      entryPoints,
      bundle: true,
      splitting: true,
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
    });
    const css = await esbuild.build({
      entryPoints: { app: new URL("static/styles/app.css", root).pathname },
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
    const cssOut = Object.entries(css.metafile.outputs).find(([, m]) => m.entryPoint)?.[0];
    if (!cssOut) throw new Error("the stylesheet was not built");
    const manifest = { css: rel(cssOut), islands };
    await Deno.writeTextFile(
      new URL("manifest.json", opts.outDir),
      JSON.stringify(manifest, null, 2),
    );
    return manifest;
  } finally {
    await esbuild.stop();
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
