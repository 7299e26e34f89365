/** Rendering helpers for pages: the signed-in frame and bare (sign-in, error) pages. */
import type { Context } from "hono";
import type { ReactNode } from "react";
import { renderDocument } from "../components/render.tsx";
import { Layout } from "../components/Layout.tsx";
import { activeCount } from "../services/notifications.ts";
import { bellAlertsOf } from "../services/alerts/mod.ts";
import type { AppEnv, Deps } from "./_deps.ts";
import { ErrorPage } from "../components/ErrorPage.tsx";
import { KeptFormNotice } from "../components/KeptFormNotice.tsx";
import { keptFormOf } from "./_kept_form.ts";
import { inlineStylesFor } from "./_styles.ts";
import { ConfirmPage, type ConfirmPageProps } from "../components/users/ConfirmPage.tsx";
import { homeOf } from "../core/roles.ts";
import type { Translate } from "../services/platform/i18n.ts";
import type { User } from "../core/types.ts";
import { timedSync } from "../services/platform/timing.ts";
import { keepTaggedPage } from "./_page_tag.ts";

type Status = 200 | 400 | 401 | 403 | 404 | 409 | 429 | 500 | 502 | 503;

/**
 * The signed-in user of a page. Pages render only behind a guard (`requireRole`,
 * `requireUser`), so a missing user is a wiring mistake, not a request to answer.
 */
function pageUser<E extends AppEnv>(c: Context<E>): User {
  const user = c.var.user;
  if (!user) throw new Error("a signed-in page was rendered without its guard");
  return user;
}

/** Renders a signed-in page inside the layout. */
export async function appPage<E extends AppEnv>(
  c: Context<E>,
  deps: Deps,
  title: string,
  body: ReactNode,
  status: Status = 200,
): Promise<Response> {
  const user = pageUser(c);
  const t = c.var.t;
  const [unread, alerts] = await Promise.all([
    activeCount(deps, user.id),
    bellAlertsOf(deps, user),
  ]);
  const kept = await keptFormOf(c as unknown as Context<AppEnv>, deps);
  const html = timedSync("render", () =>
    renderDocument(
      <Layout
        user={user}
        t={t}
        path={c.req.path}
        title={title}
        unread={unread}
        alerts={alerts}
        contact={deps.config.contact}
      >
        {kept && <KeptFormNotice t={t} form={kept} />}
        {body}
      </Layout>,
      {
        title: `${title} · ${t("common.app_name")}`,
        lang: c.var.lang,
        manifest: deps.assets.manifest,
        nonce: c.var.nonce,
        inlineStyles: inlineStylesFor(c, deps),
      },
    ));
  const tagged = keepTaggedPage(c as unknown as Context<AppEnv>, deps, html, status);
  return c.html(tagged, status);
}

/** A page frame ({@link appPage}, {@link barePage}): a title and a body in the document. */
type Frame<R> = <E extends AppEnv>(
  c: Context<E>,
  deps: Deps,
  title: string,
  body: ReactNode,
  status?: Status,
) => R;

/** A frame whose body is `Component` with `props` and the request's translator (`t`). */
type ComponentFrame<R> = <E extends AppEnv, P extends { t: Translate }>(
  c: Context<E>,
  deps: Deps,
  title: string,
  Component: (props: P) => ReactNode,
  props: NoInfer<Omit<P, "t">>,
  status?: Status,
) => R;

function withComponent<R>(frame: Frame<R>): ComponentFrame<R> {
  return (c, deps, title, Component, props, status = 200) => {
    const all = { ...props, t: c.var.t } as Parameters<typeof Component>[0];
    return frame(c, deps, title, <Component {...all} />, status);
  };
}

/**
 * Renders a signed-in page whose body is `Component` with `props` and the request's translator
 * (`t`): the common case of {@link appPage}.
 */
export const renderPage: ComponentFrame<Promise<Response>> = withComponent(appPage);

/** The confirmation step of a form post for browsers without JavaScript, titled by it. */
export function confirmPage<E extends AppEnv>(
  c: Context<E>,
  deps: Deps,
  props: Omit<ConfirmPageProps, "t">,
): Promise<Response> {
  return renderPage(c, deps, props.title, ConfirmPage, props);
}

/** Renders a page without the signed-in frame. */
export function barePage<E extends AppEnv>(
  c: Context<E>,
  deps: Deps,
  title: string,
  body: ReactNode,
  status: Status = 200,
): Response {
  const html = renderDocument(body, {
    title: `${title} · ${c.var.t("common.app_name")}`,
    lang: c.var.lang,
    manifest: deps.assets.manifest,
    nonce: c.var.nonce,
    public: true,
    inlineStyles: inlineStylesFor(c, deps),
  });
  return c.html(html, status);
}

/** {@link barePage} of `Component` with `props` and the request's translator (`t`). */
export const renderBarePage: ComponentFrame<Response> = withComponent(barePage);

/** The 'Something went wrong' page for an unexpected failure (the exception only in development). */
export function errorPage<E extends AppEnv>(
  c: Context<E>,
  deps: Deps,
  t: Translate,
  err: unknown,
): Response {
  const user = c.var.user;
  const html = renderDocument(
    <ErrorPage
      t={t}
      details={deps.config.development ? String(err) : null}
      home={user ? homeOf(user.role) : "/login"}
    />,
    {
      title: t("errors.something_went_wrong"),
      lang: c.var.lang ?? "es",
      manifest: deps.assets.manifest,
      nonce: c.var.nonce,
      public: true,
    },
  );
  return c.html(html, 500);
}
