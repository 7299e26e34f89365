/** The sign-in's second step (`/login/second-factor`): the code of the authenticator app. */
import type { Translate } from "../services/platform/i18n.ts";
import { AuthFrame } from "./AuthFrame.tsx";
import { TextField } from "./Field.tsx";

/** Props of {@link SecondStepPage}. */
interface SecondStepPageProps {
  t: Translate;
  lang: string;
  here: string;
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
      <form
        method="post"
        action="/login/second-factor"
        className="form"
        noValidate
        style={{ marginTop: "1rem" }}
      >
        <input type="hidden" name="challenge" value={p.challenge} />
        {p.next && <input type="hidden" name="next" value={p.next} />}
        <TextField
          id="code"
          label={t("second_factor.fields.code")}
          autoComplete="one-time-code"
          required
        />
        <p className="hint">{t("second_factor.step.recovery_hint")}</p>
        <button type="submit" className="btn btn-block">{t("second_factor.step.submit")}</button>
      </form>
      <p className="auth-foot">
        <a href="/login">{t("second_factor.step.back")}</a>
      </p>
    </AuthFrame>
  );
}
