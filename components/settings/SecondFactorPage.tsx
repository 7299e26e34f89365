/**
 * The second factor's page in Settings: set up (QR code, the secret as text, the first code),
 * the recovery codes once it is on (shown this once), or on (recovery codes left, turn off).
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { Card, FormHead } from "../kit/mod.ts";
import { TextField } from "../Field.tsx";

/** What the page shows. */
export type SecondFactorView =
  | { state: "setup"; secret: string; qrSvg: string }
  | { state: "codes"; codes: string[] }
  | { state: "on"; recoveryLeft: number };

/** Props of {@link SecondFactorPage}. */
export interface SecondFactorPageProps {
  t: Translate;
  /** The page's path (forms post below it). */
  action: string;
  /** The settings page, the way back. */
  back: string;
  view: SecondFactorView;
  error?: string;
  /** An admin who must turn it on before anything else. */
  required?: boolean;
}

/** The page. */
export function SecondFactorPage(
  { t, action, back, view, error, required }: SecondFactorPageProps,
) {
  return (
    <div className="settings-page second-factor-page">
      <FormHead
        title={t("second_factor.title")}
        subtitle={t("second_factor.subtitle")}
        back={back}
        backLabel={t("common.back")}
      />
      {required && view.state === "setup" && (
        <div className="alert alert-warning" role="status">{t("second_factor.required")}</div>
      )}
      {error && <div className="alert alert-error" role="alert">{error}</div>}
      {view.state === "setup" && (
        <Card title={t("second_factor.setup.title")}>
          <ol className="steps">
            <li>{t("second_factor.setup.scan")}</li>
            <li>{t("second_factor.setup.confirm")}</li>
          </ol>
          <img
            className="qr"
            data-testid="totp-qr"
            alt={t("second_factor.setup.qr_alt")}
            src={`data:image/svg+xml;base64,${btoa(view.qrSvg)}`}
            style={{ display: "block", width: "100%", maxWidth: "220px", margin: "0 auto" }}
          />
          <p className="hint">{t("second_factor.setup.manual")}</p>
          <p className="mono" data-testid="totp-secret" style={{ overflowWrap: "anywhere" }}>
            {view.secret}
          </p>
          <CodeForm
            t={t}
            action={`${action}/confirm`}
            submit={t("second_factor.setup.submit")}
          />
        </Card>
      )}
      {view.state === "codes" && (
        <Card title={t("second_factor.codes.title")}>
          <div className="alert alert-success" role="status">{t("second_factor.codes.on")}</div>
          <p>{t("second_factor.codes.once")}</p>
          <ul className="recovery-codes mono" data-testid="recovery-codes">
            {view.codes.map((c) => <li key={c}>{c}</li>)}
          </ul>
          <a className="btn" href={back}>{t("second_factor.codes.done")}</a>
        </Card>
      )}
      {view.state === "on" && (
        <Card title={t("second_factor.on.title")}>
          <p>{t("second_factor.on.left", { count: view.recoveryLeft })}</p>
          <CodeForm
            t={t}
            action={`${action}/disable`}
            submit={t("second_factor.on.off")}
            danger
          />
        </Card>
      )}
    </div>
  );
}

/** A code of the authenticator app, posted to `action`: to turn the second factor on or off. */
function CodeForm(
  { t, action, submit, danger }: { t: Translate; action: string; submit: string; danger?: boolean },
) {
  return (
    <form method="post" action={action} className="form" noValidate>
      <TextField
        id="code"
        label={t("second_factor.fields.code")}
        autoComplete="one-time-code"
        required
      />
      <button type="submit" className={danger ? "btn btn-danger" : "btn"}>{submit}</button>
    </form>
  );
}
