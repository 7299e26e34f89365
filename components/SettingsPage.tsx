/** The settings page of every role: profile, language and password change. */
import { AdminToolsCard } from "./settings/AdminToolsCard.tsx";
import { IssuerCard } from "./settings/IssuerCard.tsx";
import type { IssuerView } from "../services/invoices/mod.ts";
import { SecondFactorCard } from "./settings/SecondFactorCard.tsx";
import type { Translate } from "../services/platform/i18n.ts";
import { LANGUAGES } from "../core/roles.ts";
import { ContactFields, TextField } from "./Field.tsx";
import { Card, PageHeader } from "./kit/mod.ts";
import { Island } from "./render.tsx";
import ClearErrors from "../islands/ClearErrors.tsx";
import { MessagePrefsForm, type MessagePrefsFormProps } from "./messages/MessagePrefsForm.tsx";
import { TenantProfileSection, type TenantSectionProps } from "./settings/TenantProfileSection.tsx";
import { FiscalCard, type FiscalCardProps } from "./settings/FiscalCard.tsx";

/** Values shown in the form. */
interface SettingsValues {
  email: string;
  full_name: string;
  phone: string;
  language: string;
}

/** Props of {@link SettingsPage}. */
interface SettingsPageProps {
  t: Translate;
  action: string;
  values: SettingsValues;
  fieldErrors: Record<string, string>;
  error?: string;
  saved?: boolean;
  /** A tenant's profile, units and lease dates; absent for other roles. */
  tenant?: TenantSectionProps;
  /** The messages card (its own form); absent when the profile form is shown again with errors. */
  messages?: Omit<MessagePrefsFormProps, "t">;
  /** The second factor's card: whether it is on and its page. */
  secondFactor?: { enabled: boolean; href: string; admin?: boolean };
  /** The fiscal data card (issue 31): tenants and owners. */
  fiscal?: FiscalCardProps;
  /** The invoices' issuer card (issue 31): admins. */
  issuer?: IssuerView;
}

/** Email, full name, phone, language, current/new/confirm password, Save. */
export function SettingsPage(
  {
    t,
    action,
    values,
    fieldErrors: fe,
    error,
    saved,
    tenant,
    messages,
    secondFactor,
    fiscal,
    issuer,
  }: SettingsPageProps,
) {
  const pw = (id: string, auto: string) => (
    <TextField
      id={id}
      label={t(`settings.fields.${id}`)}
      type="password"
      autoComplete={auto}
      error={fe[id]}
    />
  );
  return (
    <>
      <PageHeader title={t("settings.title")} />
      {saved && (
        <div className="alert alert-success" role="status" style={{ marginBottom: "1rem" }}>
          {t("settings.saved")}
        </div>
      )}
      {error && (
        <div className="alert alert-error" role="alert" style={{ marginBottom: "1rem" }}>
          {error}
        </div>
      )}
      <form method="post" action={action} className="form" noValidate>
        <Island of={ClearErrors} props={{}} />
        <Card title={t("settings.profile")}>
          <div className="form-grid">
            <ContactFields
              label={(id) => t(`settings.fields.${id}`)}
              values={values}
              errors={fe}
              autofill
            />
            <div className="field">
              <label htmlFor="language">{t("settings.fields.language")}</label>
              <select id="language" name="language" defaultValue={values.language}>
                {LANGUAGES.map((l) => (
                  <option key={l} value={l}>{t(`common.languages.${l}`)}</option>
                ))}
              </select>
            </div>
          </div>
        </Card>
        <Card title={t("settings.password")}>
          <p className="hint">{t("settings.password_hint")}</p>
          <div className="form-grid">
            {pw("current_password", "current-password")}
            <span />
            {pw("new_password", "new-password")}
            {pw("confirm_password", "new-password")}
          </div>
        </Card>
        <div className="form-actions">
          <button type="submit" className="btn">{t("common.save")}</button>
        </div>
      </form>
      <div className="card-stack">
        {tenant && <TenantProfileSection t={t} {...tenant} />}
        {fiscal && <FiscalCard t={t} {...fiscal} />}
        {issuer && <IssuerCard t={t} issuer={issuer} />}
        {messages && <MessagePrefsForm t={t} {...messages} />}
        {secondFactor && <SecondFactorCard t={t} {...secondFactor} />}
        {secondFactor?.admin && <AdminToolsCard t={t} />}
      </div>
    </>
  );
}
