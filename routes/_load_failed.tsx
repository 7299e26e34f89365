/**
 * A page whose data could not be read (the store failing): the page's title, the situation's
 * own text (spec 000/001 error catalogue, e.g. 'Failed to fetch required data', 'Error loading
 * data: {message}') and a Try Again link to the same page; 503, logged, never a 500.
 */
import type { Context } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { appPage } from "./_page.tsx";
import { PageHeader } from "../components/kit/mod.ts";

/** Answers `work`'s value, or null after logging its failure. */
export async function loaded<T>(deps: Deps, what: string, work: () => Promise<T>) {
  try {
    return { ok: true as const, value: await work() };
  } catch (e) {
    deps.log.log("error", `${what} could not be loaded`, { error: String(e) });
    return { ok: false as const };
  }
}

/**
 * The page saying its data could not be loaded, with `message`, a link to try again and, given
 * `back`, the way back (e.g. the zone form's to the zone list).
 */
export function loadFailedPage<E extends AppEnv>(
  c: Context<E>,
  deps: Deps,
  title: string,
  message: string,
  back?: { href: string; label: string },
): Promise<Response> {
  const t = c.var.t;
  const url = new URL(c.req.url);
  return appPage(
    c,
    deps,
    title,
    <>
      <PageHeader title={title} />
      <div className="alert alert-error" role="alert" data-testid="load-failed">{message}</div>
      <div className="page-actions">
        <a className="btn" href={url.pathname + url.search}>
          {t("devices.sensor_data.errors.try_again")}
        </a>
        {back && <a className="btn btn-ghost" href={back.href}>{back.label}</a>}
      </div>
    </>,
    503,
  );
}
