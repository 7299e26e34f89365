/**
 * Security headers on every answer, static files included: no sniffing, no framing, a
 * same-origin referrer, `no-store` unless the route chose a cache policy, a
 * Content-Security-Policy that allows the portal's own scripts and styles only (the islands'
 * data and scripts carry this response's nonce), and HSTS when `PUBLIC_URL` is https.
 */
import type { MiddlewareHandler } from "hono";
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
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "same-origin");
    c.header("X-Frame-Options", "DENY");
    c.header("Content-Security-Policy", contentSecurityPolicy(nonce));
    if (hsts) c.header("Strict-Transport-Security", "max-age=31536000");
    if (!c.res.headers.has("cache-control")) c.header("Cache-Control", "no-store");
  };
}
