/** The app's dependencies and the per-request values handlers read from `c.var`. */
import type { Translate } from "../services/platform/i18n.ts";
import type { Language } from "../core/roles.ts";
import type { User } from "../core/types.ts";
export type { Deps } from "../services/deps.ts";

/** Hono environment of the app. */
export interface AppEnv {
  Bindings: { remoteAddr?: { hostname?: string } };
  Variables: {
    /** The signed-in user, or null. */
    user: User | null;
    /** How the request was authenticated. */
    authVia: "bearer" | "cookie" | null;
    lang: Language;
    t: Translate;
  };
}
