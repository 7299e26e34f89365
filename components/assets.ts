/** The built browser assets: island modules and the stylesheet, with hashed names. */

/** One island's module and the shared chunks it imports. */
interface IslandAsset {
  file: string;
  imports: string[];
}

/** The manifest written by `scripts/build.ts`. */
export interface Manifest {
  /** The signed-in pages' stylesheet. */
  css: string;
  /** The stylesheet of the pages without the signed-in frame (a part of `css`). */
  publicCss: string;
  /** uPlot's stylesheet, linked by pages with a chart island. */
  chartsCss: string;
  islands: Record<string, IslandAsset>;
}

/** Where the build output lives and what it holds. */
export interface Assets {
  /** Folder of the build output (file URL). */
  dir: URL;
  manifest: Manifest;
  /**
   * Each stylesheet's text by its file name, its `url(./…)` references made absolute, for a
   * page that carries its styles inline (a first visit: see `components/render.tsx`).
   */
  styles: Record<string, string>;
}

/** The default build output folder. */
export const BUILD_DIR = new URL("../static/build/", import.meta.url);

/** Reads the manifest of a build; a clear error when the build has not run. */
export async function loadAssets(dir: URL = BUILD_DIR): Promise<Assets> {
  let text: string;
  try {
    text = await Deno.readTextFile(new URL("manifest.json", dir));
  } catch {
    throw new Error(
      `No build output in ${dir.pathname}: run "deno task build" first (deno task start does).`,
    );
  }
  const manifest = JSON.parse(text) as Manifest;
  const styles: Record<string, string> = {};
  for (const file of [manifest.css, manifest.publicCss, manifest.chartsCss]) {
    const css = await Deno.readTextFile(new URL(file, dir));
    styles[file] = css.replaceAll('url("./', 'url("/static/build/');
  }
  return { dir, manifest, styles };
}
