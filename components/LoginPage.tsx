/** The sign-in page (`/login`). */
import type { Translate } from "../services/platform/i18n.ts";
import { AuthFrame } from "./AuthFrame.tsx";
import { TextField } from "./Field.tsx";

/** Props of {@link LoginPage}. */
interface LoginPageProps {
  t: Translate;
  lang: string;
  here: string;
  next: string | null;
  email?: string;
  /** The form's error and whether it is a warning (disabled account) or an error. */
  error?: { message: string; tone: "warning" | "error" };
  fieldErrors?: Record<string, string>;
  registered?: boolean;
  /** The password was just reset. */
  reset?: boolean;
  /** The session ended (a form post came after it): with its values kept, or not. */
  expired?: "expired" | "kept";
}

/** Email, password, language, link to register, success message after registration. */
export function LoginPage(p: LoginPageProps) {
  const { t } = p;
  const fe = p.fieldErrors ?? {};
  return (
    <AuthFrame t={t} lang={p.lang} here={p.here}>
      <h1>{t("auth.login.title")}</h1>
      <p className="muted">{t("auth.login.subtitle")}</p>
      {p.registered && (
        <div className="alert alert-success" role="status">{t("auth.register.success")}</div>
      )}
      {p.reset && (
        <div className="alert alert-success" role="status">{t("messages.reset.done")}</div>
      )}
      {p.expired && (
        <div className="alert alert-warning" role="status" data-testid="session-expired">
          {t(`session.${p.expired}`)}
        </div>
      )}
      {p.error && (
        <div className={`alert alert-${p.error.tone}`} role="alert" data-testid="login-error">
          {p.error.message}
        </div>
      )}
      <form method="post" action="/login" className="form" noValidate style={{ marginTop: "1rem" }}>
        {p.next && <input type="hidden" name="next" value={p.next} />}
        <TextField
          id="email"
          label={t("auth.fields.email")}
          type="email"
          autoComplete="username"
          required
          value={p.email}
          error={fe.email}
        />
        <TextField
          id="password"
          label={t("auth.fields.password")}
          type="password"
          autoComplete="current-password"
          required
          error={fe.password}
        />
        <button type="submit" className="btn btn-block">{t("auth.login.submit")}</button>
      </form>
      <p className="auth-foot">
        <a href="/forgot-password">{t("messages.reset.forgot_link")}</a>
      </p>
      <p className="auth-foot">
        {t("auth.login.no_account")} <a href="/register">{t("auth.login.register_link")}</a>
      </p>
    </AuthFrame>
  );
}
