/** The forgot-password and reset-password pages (issue 28): forms that work without JavaScript. */
import {
  AuthForm,
  AuthFrame,
  type AuthPageProps,
  PasswordField,
  UsernameField,
} from "./AuthFrame.tsx";

/** Props of {@link ForgotPasswordPage}. */
interface ForgotProps extends AuthPageProps {
  email?: string;
  sent?: boolean;
  error?: string;
  fieldErrors?: Record<string, string>;
}

/** E-mail field; after sending, the same answer whether the address has an account or not. */
export function ForgotPasswordPage(p: ForgotProps) {
  const { t } = p;
  return (
    <AuthFrame t={t} lang={p.lang} here={p.here}>
      <h1>{t("messages.reset.forgot_title")}</h1>
      <p className="muted">{t("messages.reset.forgot_intro")}</p>
      {p.sent && (
        <div className="alert alert-success" role="status" data-testid="forgot-sent">
          {t("messages.reset.forgot_sent")}
        </div>
      )}
      {p.error && <div className="alert alert-error" role="alert">{p.error}</div>}
      <AuthForm action="/forgot-password" submit={t("messages.reset.forgot_submit")}>
        <UsernameField t={t} value={p.email} error={p.fieldErrors?.email} />
      </AuthForm>
      <p className="auth-foot">
        <a href="/login">{t("messages.reset.back_to_login")}</a>
      </p>
    </AuthFrame>
  );
}

/** Props of {@link ResetPasswordPage}. */
interface ResetProps extends AuthPageProps {
  token: string;
  /** The token is unknown, used or expired: no form, a link to ask again. */
  invalidToken?: boolean;
  fieldErrors?: Record<string, string>;
}

/** The new password's field, or why the link no longer works. */
export function ResetPasswordPage(p: ResetProps) {
  const { t } = p;
  return (
    <AuthFrame t={t} lang={p.lang} here={p.here}>
      <h1>{t("messages.reset.reset_title")}</h1>
      {p.invalidToken
        ? (
          <>
            <div className="alert alert-error" role="alert" data-testid="reset-invalid">
              {t("messages.reset.invalid_token")}
            </div>
            <p className="auth-foot">
              <a href="/forgot-password">{t("messages.reset.forgot_link")}</a>
            </p>
          </>
        )
        : (
          <>
            <p className="muted">{t("messages.reset.reset_intro")}</p>
            <AuthForm action="/reset-password" submit={t("messages.reset.reset_submit")}>
              <input type="hidden" name="token" value={p.token} />
              <PasswordField
                label={t("messages.reset.new_password")}
                error={p.fieldErrors?.password}
              />
            </AuthForm>
          </>
        )}
    </AuthFrame>
  );
}
