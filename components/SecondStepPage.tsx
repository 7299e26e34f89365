/** The sign-in's second step (`/login/second-factor`): the code of the authenticator app. */
import { AuthForm, AuthFrame, type AuthPageProps } from "./AuthFrame.tsx";
import { TextField } from "./Field.tsx";

/** Props of {@link SecondStepPage}. */
interface SecondStepPageProps extends AuthPageProps {
  /** The signed challenge of the password step. */
  challenge: string;
  next: string | null;
  error?: string;
}

/** One field: six digits from the app, or a recovery code. */
export function SecondStepPage(p: SecondStepPageProps) {
  const { t } = p;
  return (
    <AuthFrame t={t} lang={p.lang} here={p.here}>
      <h1>{t("second_factor.step.title")}</h1>
      <p className="muted">{t("second_factor.step.subtitle")}</p>
      {p.error && (
        <div className="alert alert-error" role="alert" data-testid="login-error">{p.error}</div>
      )}
      <AuthForm action="/login/second-factor" submit={t("second_factor.step.submit")}>
        <input type="hidden" name="challenge" value={p.challenge} />
        {p.next && <input type="hidden" name="next" value={p.next} />}
        <TextField
          id="code"
          label={t("second_factor.fields.code")}
          autoComplete="one-time-code"
          required
        />
        <p className="hint">{t("second_factor.step.recovery_hint")}</p>
      </AuthForm>
      <p className="auth-foot">
        <a href="/login">{t("second_factor.step.back")}</a>
      </p>
    </AuthFrame>
  );
}
