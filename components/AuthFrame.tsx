/** The frame of the sign-in and registration pages, with the language switch. */
import type { ReactNode } from "react";
import type { Translate } from "../services/platform/i18n.ts";
import { LANGUAGES } from "../core/roles.ts";
import { Icon } from "./icons.tsx";
import { TextField } from "./Field.tsx";

/** What every sign-in, registration and reset page is given. */
export interface AuthPageProps {
  t: Translate;
  lang: string;
  /** The current path and query, to come back to after switching language. */
  here: string;
}

/** Props of {@link AuthFrame}. */
interface AuthFrameProps extends AuthPageProps {
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

/**
 * The form of an auth page, posted to `action` without the browser's checks (the server's
 * errors show by their fields), its full-width submit button last.
 */
export function AuthForm(
  { action, submit, children }: { action: string; submit: string; children: ReactNode },
) {
  return (
    <form method="post" action={action} className="form" noValidate style={{ marginTop: "1rem" }}>
      {children}
      <button type="submit" className="btn btn-block">{submit}</button>
    </form>
  );
}

/** The e-mail an account signs in with (the browser's saved username). */
export function UsernameField(
  { t, value, error }: { t: Translate; value?: string; error?: string },
) {
  return (
    <TextField
      id="email"
      label={t("auth.fields.email")}
      type="email"
      autoComplete="username"
      required
      value={value}
      error={error}
    />
  );
}

/** A password field of an auth page: the current one to sign in, or a new one. */
export function PasswordField(
  { label, current, error }: { label: string; current?: boolean; error?: string },
) {
  return (
    <TextField
      id="password"
      label={label}
      type="password"
      autoComplete={current ? "current-password" : "new-password"}
      required
      error={error}
    />
  );
}
