/**
 * Server rendering of pages with islands.
 *
 * A page renders to a string once; each `<Island>` in it leaves a placeholder and records
 * its component and props. Each island is then rendered as its own root with its own
 * `identifierPrefix` (the browser hydrates with the same prefix) and spliced in. Only
 * pages that contain islands reference JavaScript.
 */
import { type ComponentType, createContext, type ReactNode, useContext } from "react";
import { renderToString } from "react-dom/server";
import type { Manifest } from "./assets.ts";
import { CHART_ISLANDS, type IslandName, ISLANDS, MARKUP_ONLY_ISLANDS } from "../islands/mod.ts";

interface Recorded {
  name: IslandName;
  props: unknown;
}

interface RenderState {
  islands: Recorded[];
  marker: string;
}

const RenderContext = createContext<RenderState | null>(null);

/** Props of {@link Island}. */
interface IslandProps<P> {
  of: ComponentType<P>;
  props: P;
}

const NAMES = new Map<unknown, IslandName>(
  Object.entries(ISLANDS).map(([name, comp]) => [comp, name as IslandName]),
);

/** Places an island: rendered on the server, hydrated in the browser with the same props. */
export function Island<P>({ of, props }: IslandProps<P>): ReactNode {
  const state = useContext(RenderContext);
  const name = NAMES.get(of);
  if (!state || !name) {
    throw new TypeError(`Island: ${of.name || "component"} is not registered in islands/mod.ts`);
  }
  const index = state.islands.push({ name, props }) - 1;
  return (
    <div
      className="island"
      data-island={name}
      data-prefix={`i${index}-`}
      data-props={`island-props-${index}`}
      data-slot={`${state.marker}${index}`}
    />
  );
}

/** Serializes props for a `<script type="application/json">`, safe against `</script>`. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** Escapes text for HTML. */
function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );
}

/** What the document shell needs besides the body. */
interface ShellOptions {
  title: string;
  lang: string;
  manifest: Manifest;
  /** The response's Content-Security-Policy nonce, put on the islands' data and scripts. */
  nonce?: string;
  /** A page without the signed-in frame: it links the smaller public stylesheet. */
  public?: boolean;
  /**
   * The stylesheets' texts, given for a browser that has not loaded them yet (a first visit):
   * the page carries them inline, so its first paint waits for no other request, and asks for
   * the files at low priority (`prefetch`) so the next page finds them in the cache.
   */
  inlineStyles?: Record<string, string>;
}

/** The stylesheets of a page, in cascade order: uPlot's first, then the portal's own. */
export function stylesheetsOf(opts: Pick<ShellOptions, "manifest" | "public">, charts: boolean) {
  return [
    ...(charts ? [opts.manifest.chartsCss] : []),
    opts.public ? opts.manifest.publicCss : opts.manifest.css,
  ];
}

/** Renders a page element to a complete HTML document. */
export function renderDocument(page: ReactNode, opts: ShellOptions): string {
  const state: RenderState = {
    islands: [],
    marker: `isl-${crypto.randomUUID().slice(0, 8)}-`,
  };
  let body = renderToString(
    <RenderContext.Provider value={state}>{page}</RenderContext.Provider>,
  );
  const nonce = opts.nonce ? ` nonce="${escapeHtml(opts.nonce)}"` : "";
  const propScripts: string[] = [];
  const used = new Set<IslandName>();
  state.islands.forEach((isl, index) => {
    const Comp = ISLANDS[isl.name] as ComponentType<unknown>;
    const html = renderToString(<Comp {...(isl.props as object)} />, {
      identifierPrefix: `i${index}-`,
    });
    const slot = ` data-slot="${state.marker}${index}"></div>`;
    body = body.replace(slot, () => `>${html}</div>`);
    if (!MARKUP_ONLY_ISLANDS.has(isl.name)) {
      propScripts.push(
        `<script type="application/json" id="island-props-${index}"${nonce}>${
          jsonForScript(isl.props)
        }</script>`,
      );
    }
    used.add(isl.name);
  });
  const scripts: string[] = [];
  const preloads = new Set<string>();
  for (const name of used) {
    const asset = opts.manifest.islands[name];
    if (!asset) throw new Error(`Island ${name} is missing from the build: run deno task build`);
    for (const imp of asset.imports) preloads.add(imp);
    scripts.push(`<script type="module"${nonce} src="/static/build/${asset.file}"></script>`);
  }
  const head = [
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeHtml(opts.title)}</title>`,
    `<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">`,
    ...stylesheetsOf(opts, [...used].some((name) => CHART_ISLANDS.has(name))).map((file) => {
      const href = `/static/build/${file}`;
      const text = opts.inlineStyles?.[file];
      // A style element ends at the first "</style": none is in the built CSS (its strings
      // are selectors, properties and font URLs), and a stray one is cut out all the same.
      return text === undefined
        ? `<link rel="stylesheet" href="${href}">`
        : `<style${nonce}>${
          text.replaceAll("</style", "")
        }</style><link rel="prefetch" as="style" href="${href}">`;
    }),
    // A first visit's public page (sign-in) also readies the signed-in pages' stylesheet.
    ...(opts.inlineStyles && opts.public
      ? [`<link rel="prefetch" as="style" href="/static/build/${opts.manifest.css}">`]
      : []),
    ...[...preloads].map((p) => `<link rel="modulepreload" href="/static/build/${p}">`),
  ].join("");
  return `<!DOCTYPE html><html lang="${escapeHtml(opts.lang)}"><head>${head}</head><body>${body}${
    propScripts.join("")
  }${scripts.join("")}</body></html>`;
}
