/** The account form: create or edit a customer, tenant or admin. */
import type { Translate } from "../../services/platform/i18n.ts";
import { ContactFields, errAttrs, Field, FieldError, hintAttrs, SelectField } from "../Field.tsx";
import { Island } from "../render.tsx";
import ClearErrors from "../../islands/ClearErrors.tsx";
import RoleSelect from "../../islands/RoleSelect.tsx";
import { Card, FormError, PageHeader } from "../kit/mod.ts";

/** The values shown in the form (never the password). */
export interface AccountValues {
  email: string;
  full_name: string;
  phone: string;
  role: string;
  is_active: boolean;
  company_name: string;
  tax_id: string;
  /** A new tenant's unit (`sensorId:unit_N`) and move-in date (`YYYY-MM-DD`), when offered. */
  unit?: string;
  move_in_date?: string;
}

/** A unit a new tenant can move into. */
export interface UnitOption {
  value: string;
  label: string;
}

/** Props of {@link AccountForm}. */
interface AccountFormProps {
  t: Translate;
  title: string;
  action: string;
  cancelHref: string;
  /** The stored role when editing, null when creating. */
  original: string | null;
  values: AccountValues;
  /** Translated errors by field. */
  fieldErrors: Record<string, string>;
  /** The form-level error ('Failed to create account' / 'Failed to update account'). */
  error?: string;
  /** Creating a tenant: the units they can move into (the Unit card shows). */
  units?: UnitOption[];
}

/** Email, full name, phone, active, role (with customer fields), password; Cancel, Save. */
export function AccountForm(
  { t, title, action, cancelHref, original, values, fieldErrors: fe, error, units }:
    AccountFormProps,
) {
  const editing = original !== null;
  return (
    <>
      <PageHeader title={title} />
      <FormError>{error}</FormError>
      <form method="post" action={action} className="form" noValidate>
        <Island of={ClearErrors} props={{}} />
        <Card title={t("users.form.account")}>
          <div className="form-grid">
            <ContactFields
              label={(id) => t(`users.form.fields.${id}`)}
              values={values}
              errors={fe}
            />
            <div className="field">
              <div className="check check-aligned">
                <input
                  id="is_active"
                  name="is_active"
                  type="checkbox"
                  value="on"
                  defaultChecked={values.is_active}
                  aria-describedby="is_active-hint"
                  {...errAttrs("is_active", fe.is_active)}
                />
                <label htmlFor="is_active">{t("users.form.fields.is_active")}</label>
              </div>
              <p className="hint" id="is_active-hint">{t("users.form.active_hint")}</p>
              <FieldError id="is_active" message={fe.is_active} />
            </div>
          </div>
        </Card>
        <Card title={t("users.form.access")}>
          <Island
            of={RoleSelect}
            props={{
              role: values.role,
              original,
              companyName: values.company_name,
              taxId: values.tax_id,
              errors: {
                ...(fe.role ? { role: fe.role } : {}),
                ...(fe.company_name ? { company_name: fe.company_name } : {}),
                ...(fe.tax_id ? { tax_id: fe.tax_id } : {}),
              },
              texts: {
                role: t("users.form.fields.role"),
                roles: {
                  admin: t("common.roles.admin"),
                  customer: t("common.roles.customer"),
                  user: t("common.roles.user"),
                },
                toUser: t("users.form.role_warning_to_user"),
                toCustomer: t("users.form.role_warning_to_customer"),
                other: t("users.form.role_warning_other"),
                customerDetails: t("users.form.customer_details"),
                customerOnly: t("users.form.customer_only"),
                companyName: t("users.form.fields.company_name"),
                taxId: t("users.form.fields.tax_id"),
              },
            }}
          />
          <div className="form-grid" style={{ marginTop: "1rem" }}>
            <Field
              id="password"
              label={t("users.form.fields.password")}
              hint={t(
                editing ? "users.form.password_hint_edit" : "users.form.password_hint_create",
              )}
              error={fe.password}
            >
              <input
                id="password"
                name="password"
                type="password"
                autoComplete="new-password"
                {...errAttrs("password", fe.password)}
              />
            </Field>
          </div>
        </Card>
        {units && <TenantUnitCard t={t} units={units} values={values} fe={fe} />}
        <div className="form-actions">
          <a className="btn btn-secondary" href={cancelHref}>{t("users.form.cancel")}</a>
          <button type="submit" className="btn">
            {t(editing ? "users.form.submit_edit" : "users.form.submit_create")}
          </button>
        </div>
      </form>
    </>
  );
}

/** A new tenant's unit (none yet, or one with a meter) and the day they move in. */
function TenantUnitCard(
  { t, units, values, fe }: {
    t: Translate;
    units: UnitOption[];
    values: AccountValues;
    fe: Record<string, string>;
  },
) {
  const U = (k: string) => t(`users.form.tenant_unit.${k}`);
  return (
    <Card title={U("title")}>
      <div className="form-grid">
        <SelectField
          id="unit"
          label={U("unit")}
          hint={U(units.length ? "unit_hint" : "no_units")}
          hintLinked
          error={fe.unit}
          value={values.unit ?? ""}
          empty={U("none")}
          options={units}
        />
        <Field
          id="move_in_date"
          label={U("move_in_date")}
          hint={U("move_in_hint")}
          hintLinked
          error={fe.move_in_date}
        >
          <input
            id="move_in_date"
            name="move_in_date"
            type="date"
            defaultValue={values.move_in_date ?? ""}
            {...hintAttrs("move_in_date", fe.move_in_date)}
          />
        </Field>
      </div>
    </Card>
  );
}
