/** The sign-in page (`/login`). */
import {
  AuthForm,
  AuthFrame,
  type AuthPageProps,
  PasswordField,
  UsernameField,
} from "./AuthFrame.tsx";

/** Props of {@link LoginPage}. */
interface LoginPageProps extends AuthPageProps {
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
      <AuthForm action="/login" submit={t("auth.login.submit")}>
        {p.next && <input type="hidden" name="next" value={p.next} />}
        <UsernameField t={t} value={p.email} error={fe.email} />
        <PasswordField label={t("auth.fields.password")} current error={fe.password} />
      </AuthForm>
      <p className="auth-foot">
        <a href="/forgot-password">{t("messages.reset.forgot_link")}</a>
      </p>
      <p className="auth-foot">
        {t("auth.login.no_account")} <a href="/register">{t("auth.login.register_link")}</a>
      </p>
    </AuthFrame>
  );
}
