/**
 * ETags of signed-in pages (issue 32): a page that lists what it shows depends on
 * (`services/page_tags.ts`: revisions, live parts, the clock) answers with a weak ETag of
 * those, who asks (the account as the session read it), the language, the address (path and
 * query: a page's tab, period or flash notice) and the build. A GET whose `If-None-Match` holds
 * it gets a 304 without a body, checked before the page's data is loaded; a page asked again
 * with the same tag is answered from memory (`services/platform/page_cache.ts`), with its own
 * CSP nonce. Not tagged: a request carrying a kept form (its notice is shown once), and any
 * answer but a 200 page.
 */
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv, Deps, UserEnv } from "./_deps.ts";
import { createHash } from "node:crypto";
import { buildId } from "../services/platform/build_id.ts";
import { PageCache } from "../services/platform/page_cache.ts";
import type { TagPart } from "../services/page_tags.ts";
import { KEPT_COOKIE } from "./_kept_form.ts";
import { inlineStylesFor, stylesSent } from "./_styles.ts";

const caches = new WeakMap<object, { cache: PageCache; assets: string }>();

/** The page cache of an app (one per `deps`) and the id of its browser assets. */
function appState(deps: Deps) {
  let state = caches.get(deps);
  if (!state) {
    state = { cache: new PageCache(), assets: JSON.stringify(deps.assets.manifest) };
    caches.set(deps, state);
  }
  return state;
}

/** Whether an `If-None-Match` value names `tag` (weak comparison, or `*`). */
export function matchesTag(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const bare = tag.replace(/^W\//, "");
  return header.split(",").some((t) => {
    const v = t.trim();
    return v === "*" || v.replace(/^W\//, "") === bare;
  });
}

/** The weak ETag of `parts` (a SHA-256 done at once: WebCrypto's round trip costs more). */
export function tagOf(parts: readonly unknown[]): string {
  const digest = createHash("sha256").update(JSON.stringify(parts)).digest("hex");
  return `W/"${digest.slice(0, 32)}"`;
}

/** The tag of the request's page from the page's own `parts`, or null when not tagged. */
async function requestTag(
  c: Context<UserEnv>,
  deps: Deps,
  parts: () => Promise<TagPart[]>,
): Promise<string | null> {
  if (c.req.method !== "GET" || getCookie(c, KEPT_COOKIE) !== undefined) return null;
  const url = new URL(c.req.url);
  return tagOf([
    await buildId(),
    appState(deps).assets,
    c.var.user,
    c.var.lang,
    // A first visit's page carries its styles inline (routes/_styles.ts): kept apart.
    stylesSent(c, deps),
    url.pathname + url.search,
    await parts(),
  ]);
}

/**
 * Answers a tagged page's request when it can without the page: a 304 for a matching
 * `If-None-Match`, else the page kept under the tag. Null: the handler loads and renders it
 * (`appPage` keeps it and sends the tag).
 */
export async function answerByTag(
  c: Context<UserEnv>,
  deps: Deps,
  parts: () => Promise<TagPart[]>,
): Promise<Response | null> {
  const tag = await requestTag(c, deps, parts);
  if (!tag) return null;
  c.set("pageTag", tag);
  if (matchesTag(c.req.header("if-none-match"), tag)) {
    c.header("ETag", tag);
    return c.body(null, 304);
  }
  const kept = appState(deps).cache.get(tag, c.var.nonce ?? "");
  if (kept === null) return null;
  // A first visit's kept page carries the styles inline: the cookie saying so goes with it.
  if (!stylesSent(c, deps)) inlineStylesFor(c, deps);
  c.header("ETag", tag);
  return c.html(kept, 200);
}

/** Leaves the request's page untagged (a page showing a failure to read part of it). */
export function untag<E extends AppEnv>(c: Context<E>): void {
  (c as unknown as Context<AppEnv>).set("pageTag", undefined);
}

/**
 * A rendered page with its tag in `<meta name="etag">` (its refreshes start from it), kept
 * under the tag and sent with it; a page untagged or not a 200 is answered as it is.
 */
export function keepTaggedPage(
  c: Context<AppEnv>,
  deps: Deps,
  html: string,
  status: number,
): string {
  const tag = c.var.pageTag;
  if (!tag || status !== 200) return html;
  const page = html.replace("<head>", () => `<head><meta name="etag" content="${escapeTag(tag)}">`);
  appState(deps).cache.set(tag, page, c.var.nonce ?? "");
  c.header("ETag", tag);
  return page;
}

/** A tag as an attribute's text (its quotes). */
const escapeTag = (tag: string) => tag.replaceAll("&", "&amp;").replaceAll('"', "&quot;");

/**
 * A JSON answer tagged like a page (the bell's count, the live cells' figures): a 304 for a
 * matching `If-None-Match`, else `body()` with its ETag.
 */
export async function taggedJson(
  c: Context<UserEnv>,
  deps: Deps,
  parts: () => Promise<TagPart[]>,
  body: () => Promise<unknown>,
): Promise<Response> {
  const tag = await requestTag(c, deps, parts);
  if (tag && matchesTag(c.req.header("if-none-match"), tag)) {
    c.header("ETag", tag);
    return c.body(null, 304);
  }
  const json = await body();
  if (tag) c.header("ETag", tag);
  return c.json(json);
}
