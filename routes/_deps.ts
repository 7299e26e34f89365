/** The app's dependencies and the per-request values handlers read from `c.var`. */
import type { ApiKey } from "../core/api_keys.ts";
import type { Translate } from "../services/platform/i18n.ts";
import type { Language } from "../core/roles.ts";
import type { User } from "../core/types.ts";
import type { Deps as ServiceDeps } from "../services/deps.ts";
import type { Assets } from "../components/assets.ts";
import type { TokenClaims } from "../services/platform/tokens.ts";

/** What the app is built from: the services' dependencies and the browser build's assets. */
export type AppDeps = ServiceDeps & {
  /** The browser build (islands and CSS) the pages link to. */
  assets: Assets;
  /** Where mails go (the outbox folder when written as files) and a nudge to the worker. */
  mail?: { where: string; folder: string | null; whatsapp?: boolean; kick(): void };
};

/** The routes' name for {@link AppDeps}. */
export type Deps = AppDeps;

/** Hono environment of the app. */
export interface AppEnv {
  Bindings: { remoteAddr?: { hostname?: string } };
  Variables: {
    /** The signed-in user, or null. */
    user: User | null;
    /** The verified claims of the request's token (null without a valid session). */
    session: TokenClaims | null;
    /** How the request was authenticated. */
    authVia: "bearer" | "cookie" | null;
    /** The API key of the request (`Bearer pk_…`), which limits it to its scope. */
    apiKey?: ApiKey | null;
    lang: Language;
    t: Translate;
    /** This response's Content-Security-Policy nonce. */
    nonce?: string;
    /** Set once a page guard has remembered this GET as the last route. */
    routeRecorded?: boolean;
    /** The ETag of this page, when it is a tagged page (`_page_tag.ts`). */
    pageTag?: string;
  };
}

/**
 * The environment of handlers behind a role guard (`requireRole`, `requireApiRole`): the
 * signed-in user is known, so `c.var.user` is a `User`.
 */
export type UserEnv = AppEnv & { Variables: { user: User } };
