/**
 * The portal's font: Inter as one variable woff2, cut down from the Latin file of
 * `@fontsource-variable/inter` 5.3.0 (weights 100-900) with `subset-font` 2.9.0 (HarfBuzz's
 * subsetter): the same Latin characters (the stylesheet's `unicode-range`), the wght axis limited
 * to 400-700 (every weight the stylesheets ask for) and only the layout features the pages use.
 * `scripts/build.ts` writes it to `.build/fonts/` before bundling the stylesheet; a result is kept
 * there and made again only when the source file or these settings change.
 * `deno run -A scripts/subset_font.ts` makes it alone and prints its size.
 */
import { Buffer } from "node:buffer";
import subsetFont from "subset-font";

const root = new URL("../", import.meta.url);

/** The file the stylesheet names (`static/styles/app.css`). */
const FONT_FILE = new URL(".build/fonts/inter-latin-wght-400-700.woff2", root);

/** The source: fontsource's Latin file of the variable Inter. */
const SOURCE = new URL(
  import.meta.resolve("@fontsource-variable/inter/files/inter-latin-wght-normal.woff2"),
);

/** fontsource's Latin range, as the stylesheet's `unicode-range` declares it. */
const LATIN: [number, number][] = [
  [0x0000, 0x00ff],
  [0x0131, 0x0131],
  [0x0152, 0x0153],
  [0x02bb, 0x02bc],
  [0x02c6, 0x02c6],
  [0x02da, 0x02da],
  [0x02dc, 0x02dc],
  [0x0304, 0x0304],
  [0x0308, 0x0308],
  [0x0329, 0x0329],
  [0x2000, 0x206f],
  [0x20ac, 0x20ac],
  [0x2122, 0x2122],
  [0x2191, 0x2191],
  [0x2193, 0x2193],
  [0x2212, 0x2212],
  [0x2215, 0x2215],
  [0xfeff, 0xfeff],
  [0xfffd, 0xfffd],
];

/** The settings of the cut. Features: kerning, marks and composed accents, ligatures, the
 * weight-dependent glyph swaps, and tabular figures (`font-variant-numeric: tabular-nums`).
 * Inter's contextual alternates (`calt`: arrows from "->", raised colons between digits) and
 * its stylistic sets are left out: the pages do not rely on them and `calt` alone weighs about
 * 4 KiB. */
const SETTINGS = {
  targetFormat: "woff2",
  keepFeatures: ["ccmp", "mark", "mkmk", "kern", "liga", "rlig", "rvrn", "tnum"],
  variationAxes: { wght: { min: 400, max: 700 } },
} as const;

/** Writes the cut font to `FONT_FILE` unless the kept one was made from the same source and
 * settings; returns its size in bytes. */
export async function subsetInter(): Promise<number> {
  const source = await Deno.readFile(SOURCE);
  const key = await digest(source, JSON.stringify({ LATIN, SETTINGS }));
  const keyFile = new URL(`${FONT_FILE.pathname}.key`, "file://");
  const kept = await Deno.readTextFile(keyFile).catch(() => "");
  if (kept === key) {
    const size = await Deno.stat(FONT_FILE).then((s) => s.size).catch(() => 0);
    if (size > 0) return size;
  }
  let text = "";
  for (const [from, to] of LATIN) {
    for (let c = from; c <= to; c++) text += String.fromCodePoint(c);
  }
  // subset-font recognises its input only as a Node Buffer.
  const out = await subsetFont(Buffer.from(source), text, {
    ...SETTINGS,
    keepFeatures: [...SETTINGS.keepFeatures],
  });
  // Written aside and renamed, so that a build running at the same time never reads half a file.
  await Deno.mkdir(new URL("./", FONT_FILE), { recursive: true });
  const aside = `${FONT_FILE.pathname}.${crypto.randomUUID()}`;
  await Deno.writeFile(aside, out);
  await Deno.rename(aside, FONT_FILE);
  await Deno.writeTextFile(keyFile, key);
  return out.byteLength;
}

async function digest(bytes: Uint8Array<ArrayBuffer>, settings: string): Promise<string> {
  const all = new Uint8Array([...bytes, ...new TextEncoder().encode(settings)]);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

if (import.meta.main) {
  const size = await subsetInter();
  // deno-lint-ignore no-console
  console.log(`${FONT_FILE.pathname}: ${(size / 1024).toFixed(1)} KiB`);
}
