/**
 * A service's {@link Refusal} as HTTP, in one place (issue 10): the status of each kind, the
 * JSON answer `{message, errors}` (translated) for the API and form posts, and an error page
 * in the frame for page requests. `createApp` installs it in `onError`, so handlers simply let
 * a refusal propagate.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { Refusal, type RefusalKind } from "../services/refusal.ts";
import type { AppEnv, Deps } from "./_deps.ts";
import { appPage, barePage } from "./_page.tsx";

/**
 * Locale-key prefixes of refusals by an upstream server the portal talks to on the
 * caller's behalf (the MQTT broker that keeps the devices' accounts): 502 Bad Gateway
 * rather than the 503 of `unavailable`.
 */
const GATEWAY_KEYS = ["mqtt_test.provisioning."];

/** The HTTP status of a refusal: by its kind, 502 for an upstream server's. */
export function refusalStatus(r: Refusal): ContentfulStatusCode {
  if (r.kind === "unavailable" && GATEWAY_KEYS.some((p) => r.key.startsWith(p))) return 502;
  return REFUSAL_STATUS[r.kind];
}

/** The HTTP status of each kind of refusal. */
const REFUSAL_STATUS: Record<RefusalKind, ContentfulStatusCode> = {
  invalid: 400,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  unavailable: 503,
};

/**
 * The translated JSON body of a refusal: `{message}`, with `errors` (by field) when the
 * refusal names fields, as the API answered before refusals existed (and `detail` when known).
 */
function refusalBody<E extends AppEnv>(c: Context<E>, r: Refusal) {
  const t = c.var.t;
  const fields = Object.entries(r.fields);
  const detail = r.detail ? { detail: r.detail } : {};
  if (fields.length === 0) return { message: t(r.key, r.params), ...detail };
  const errors = Object.fromEntries(fields.map(([k, v]) => [k, t(v, r.params)]));
  return { message: t(r.key, r.params), errors, ...detail };
}

/**
 * The result of `work`, or the {@link Refusal} it was refused with (any other error is
 * thrown on): for pages that answer a refusal with their form or a redirect.
 */
export async function attempt<T>(work: Promise<T>): Promise<T | Refusal> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof Refusal) return e;
    throw e;
  }
}

/** Whether a request wants JSON rather than a page. */
function wantsJson<E extends AppEnv>(c: Context<E>): boolean {
  const p = c.req.path;
  return p.startsWith("/api/") || p.startsWith("/auth/") || c.req.method !== "GET" ||
    (c.req.header("accept") ?? "").startsWith("application/json");
}

/** Answers a refusal: JSON for the API and non-GET requests, a page otherwise. */
export function refusalResponse<E extends AppEnv>(
  c: Context<E>,
  deps: Deps,
  r: Refusal,
): Response | Promise<Response> {
  const status = refusalStatus(r);
  // A refusal for want of capacity (a busy password pool, a broker away) may succeed soon.
  if (status === 503) c.header("Retry-After", "5");
  if (wantsJson(c)) return c.json(refusalBody(c, r), status);
  const t = c.var.t;
  const body = (
    <main className="card" role="alert">
      <h1>{t(r.key, r.params)}</h1>
      <div className="page-actions">
        <a className="btn" href="/">{t("errors.go_home")}</a>
      </div>
    </main>
  );
  const pageStatus = status as 400 | 403 | 404 | 409 | 502 | 503;
  return c.var.user
    ? appPage(c, deps, t(r.key, r.params), body, pageStatus)
    : barePage(c, deps, t(r.key, r.params), body, pageStatus);
}

export { Refusal };
