/**
 * Security headers on every answer, static files included: no sniffing, no framing, a
 * same-origin referrer, `no-store` unless the route chose a cache policy, a
 * Content-Security-Policy that allows the portal's own scripts and styles only (the islands'
 * data and scripts carry this response's nonce), and HSTS when `PUBLIC_URL` is https.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";

/** The Content-Security-Policy of a response with `nonce`. */
function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // A first visit's page carries its stylesheets inline (routes/_styles.ts), with the nonce.
    `style-src 'self' 'nonce-${nonce}'`,
    // React renders a few computed sizes (chart heights, bars) as style attributes.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The middleware setting the headers (install it before every route). */
export function securityHeaders(deps: Deps): MiddlewareHandler<AppEnv> {
  const hsts = deps.config.publicUrl?.protocol === "https:";
  return async (c, next) => {
    const nonce = crypto.randomUUID().replaceAll("-", "");
    c.set("nonce", nonce);
    await next();
    const headers: [string, string][] = [
      ["X-Content-Type-Options", "nosniff"],
      ["Referrer-Policy", "same-origin"],
      ["X-Frame-Options", "DENY"],
      ["Content-Security-Policy", contentSecurityPolicy(nonce)],
    ];
    if (hsts) headers.push(["Strict-Transport-Security", "max-age=31536000"]);
    if (!c.res.headers.has("cache-control")) headers.push(["Cache-Control", "no-store"]);
    // Said here for `compress()` (installed outside this one), which would otherwise add it
    // through `c.header()` and copy every answer it may compress.
    const vary = c.res.headers.get("vary");
    if (!vary) headers.push(["Vary", "Accept-Encoding"]);
    else if (!/accept-encoding|\*/i.test(vary)) headers.push(["Vary", `${vary}, Accept-Encoding`]);
    setHeaders(c, headers);
  };
}

/**
 * Sets `headers` on the answer in place. Not through `c.header()`: on an answer already made
 * it copies the whole response each call, and the copy streams its body (a 100 KB page then
 * costs several times its plain answer). An answer whose headers cannot change (a fetched
 * file) is copied once.
 */
function setHeaders(c: Context<AppEnv>, headers: readonly [string, string][]): void {
  try {
    for (const [name, value] of headers) c.res.headers.set(name, value);
  } catch {
    c.res = new Response(c.res.body, c.res);
    for (const [name, value] of headers) c.res.headers.set(name, value);
  }
}
