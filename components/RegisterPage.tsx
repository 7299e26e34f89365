/** The registration page (`/register`). */
import { PHONE_COUNTRIES } from "../core/schemas.ts";
import { AuthForm, AuthFrame, type AuthPageProps } from "./AuthFrame.tsx";
import { errAttrs, FieldError, TextField } from "./Field.tsx";
import { Island } from "./render.tsx";
import ClearErrors from "../islands/ClearErrors.tsx";
import TermsConsent from "../islands/TermsConsent.tsx";
import type { LegalDoc } from "../core/legal.ts";

/** What the form shows again after a failed post. */
export interface RegisterValues {
  full_name?: string;
  email?: string;
  phone_country?: string;
  phone?: string;
  accessCode?: string;
  terms?: boolean;
}

/** Props of {@link RegisterPage}. */
interface RegisterPageProps extends AuthPageProps {
  values: RegisterValues;
  fieldErrors: Record<string, string>;
  error?: string;
  terms: LegalDoc;
  privacy: LegalDoc;
}

/** Full name, e-mail, phone with country code, password twice, access code, terms. */
export function RegisterPage(p: RegisterPageProps) {
  const { t, values: v } = p;
  const fe = p.fieldErrors;
  const field = (
    id: keyof RegisterValues | "password" | "confirm_password",
    type: string,
    auto: string,
    value?: string,
  ) => (
    <TextField
      id={id}
      label={t(`auth.fields.${id}`)}
      type={type}
      autoComplete={auto}
      required
      value={value}
      error={fe[id]}
    />
  );
  return (
    <AuthFrame t={t} lang={p.lang} here={p.here} wide>
      <h1>{t("auth.register.title")}</h1>
      <p className="muted">{t("auth.register.subtitle")}</p>
      {p.error && <div className="alert alert-error" role="alert">{p.error}</div>}
      <AuthForm action="/register" submit={t("auth.register.submit")}>
        <Island of={ClearErrors} props={{}} />
        {field("full_name", "text", "name", v.full_name)}
        {field("email", "email", "email", v.email)}
        <div className="field">
          <label htmlFor="phone">{t("auth.fields.phone")}</label>
          <div className="phone-row">
            <select
              name="phone_country"
              aria-label={t("auth.fields.phone_country")}
              defaultValue={v.phone_country ?? "MX"}
            >
              {PHONE_COUNTRIES.map((c) => (
                <option key={c.id} value={c.id}>{`${c.id} ${c.dial}`}</option>
              ))}
            </select>
            <input
              id="phone"
              name="phone"
              type="tel"
              inputMode="numeric"
              autoComplete="tel-national"
              required
              defaultValue={v.phone}
              {...errAttrs("phone", fe.phone)}
            />
          </div>
          <FieldError id="phone" message={fe.phone} />
          <p className="hint">{t("auth.register.phone_hint")}</p>
        </div>
        <div className="form-grid">
          {field("password", "password", "new-password")}
          {field("confirm_password", "password", "new-password")}
        </div>
        {field("accessCode", "text", "off", v.accessCode)}
        <Island
          of={TermsConsent}
          props={{
            checked: v.terms ?? false,
            error: fe.terms ?? null,
            terms: p.terms,
            privacy: p.privacy,
            texts: {
              label: t("auth.register.terms_label"),
              read: t("auth.register.terms_read"),
              title: t("auth.register.terms_title"),
              termsTab: t("auth.register.terms_tab"),
              privacyTab: t("auth.register.privacy_tab"),
              accept: t("auth.register.accept"),
              cancel: t("common.cancel"),
            },
          }}
        />
      </AuthForm>
      <p className="auth-foot">
        {t("auth.register.have_account")} <a href="/login">{t("auth.register.login_link")}</a>
      </p>
    </AuthFrame>
  );
}
