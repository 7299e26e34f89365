/** The frame of the sign-in and registration pages, with the language switch. */
import type { ReactNode } from "react";
import type { Translate } from "../services/platform/i18n.ts";
import { LANGUAGES } from "../core/roles.ts";
import { Icon } from "./icons.tsx";

/** Props of {@link AuthFrame}. */
interface AuthFrameProps {
  t: Translate;
  lang: string;
  /** The current path and query, to come back to after switching language. */
  here: string;
  wide?: boolean;
  children: ReactNode;
}

/** Centered card with brand and language links (they work without JavaScript). */
export function AuthFrame({ t, lang, here, wide, children }: AuthFrameProps) {
  const sep = here.includes("?") ? "&" : "?";
  return (
    <main className="auth-page">
      <div className={`auth-card${wide ? " wide" : ""}`}>
        <nav className="lang-switch" aria-label={t("common.language")}>
          {LANGUAGES.map((l) => (
            <a
              key={l}
              href={`${here}${sep}lang=${l}`}
              hrefLang={l}
              lang={l}
              aria-current={l === lang ? "true" : undefined}
            >
              {t(`common.languages.${l}`)}
            </a>
          ))}
        </nav>
        <div className="auth-brand">
          <Icon name="bolt" /> {t("common.app_name")}
        </div>
        {children}
      </div>
    </main>
  );
}
