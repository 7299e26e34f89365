/**
 * Whether a page carries its stylesheets inline (issue 32: nothing render-blocking on a first
 * visit). A browser that has not loaded this build's stylesheets would wait a round trip for
 * them before painting anything (over half a second on a slow phone network); so a page it
 * asks for carries them inline and asks for the files at low priority, and a cookie says this
 * browser was sent them. Once it says so, pages link the files (cached for a year, immutable),
 * and their HTML stays small. The cookie names the build's stylesheet: a new build sends the new
 * styles inline once. A cookie that outlives the cache only costs the linked file's round trip.
 */
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv, Deps } from "./_deps.ts";

const COOKIE = "styles";

/** Whether this browser was sent this build's stylesheets (a page's tag holds it too). */
export function stylesSent<E extends AppEnv>(c: Context<E>, deps: Deps): boolean {
  return getCookie(c, COOKIE) === deps.assets.manifest.css;
}

/** The stylesheets' texts when this browser has not been sent them (the cookie then set). */
export function inlineStylesFor<E extends AppEnv>(
  c: Context<E>,
  deps: Deps,
): Record<string, string> | undefined {
  const build = deps.assets.manifest.css;
  if (stylesSent(c, deps)) return undefined;
  setCookie(c, COOKIE, build, {
    path: "/",
    maxAge: 365 * 86_400,
    sameSite: "Lax",
    httpOnly: true,
    secure: deps.config.publicUrl?.protocol === "https:",
  });
  return deps.assets.styles;
}
