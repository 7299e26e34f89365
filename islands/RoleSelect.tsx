/**
 * The role field of the account form, with the customer-only fields (company name, tax
 * ID). On edit, choosing another role shows that the account's assignments reset. With
 * JavaScript (the plain script `RoleSelect.client.ts`) the customer fields show only for
 * customers; without it they are always shown (the server ignores them for other roles).
 */
import { roleChangeWarning } from "./role_change.ts";

/** Texts of the role field, translated on the server. */
interface RoleSelectTexts {
  role: string;
  roles: { admin: string; customer: string; user: string };
  /** Customer to tenant: station assignments are removed. */
  toUser: string;
  /** Tenant to customer: sensor assignments are removed. */
  toCustomer: string;
  /** Any other role change. */
  other: string;
  customerDetails: string;
  customerOnly: string;
  companyName: string;
  taxId: string;
}

/** Props of the role field. */
export interface RoleSelectProps {
  /** The role selected now. */
  role: string;
  /** The stored role when editing, null when creating. */
  original: string | null;
  companyName: string;
  taxId: string;
  /** Translated errors of role, company_name and tax_id. */
  errors: Record<string, string>;
  texts: RoleSelectTexts;
}

const ROLE_ORDER = ["customer", "user", "admin"] as const;

/** The role select, the reset warning and the customer fields, as the server renders them. */
export default function RoleSelect(
  { role, original, companyName, taxId, errors, texts }: RoleSelectProps,
) {
  const warning = roleChangeWarning(original, role);
  const err = (id: string) =>
    errors[id] ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
  const text = (id: "company_name" | "tax_id", label: string, value: string) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={id} type="text" defaultValue={value} {...err(id)} />
      {errors[id] && <p className="field-error" id={`${id}-error`}>{errors[id]}</p>}
    </div>
  );
  return (
    <div className="form-grid">
      <div className="field" style={{ gridColumn: "1 / -1" }}>
        <label htmlFor="role">{texts.role}</label>
        <select id="role" name="role" defaultValue={role} {...err("role")}>
          {ROLE_ORDER.map((r) => <option key={r} value={r}>{texts.roles[r]}</option>)}
        </select>
        {errors.role && <p className="field-error" id="role-error">{errors.role}</p>}
        <div aria-live="polite" data-warning>
          {warning && (
            <p className="alert alert-warning" data-testid="role-warning">{texts[warning]}</p>
          )}
        </div>
      </div>
      <fieldset style={{ gridColumn: "1 / -1" }} data-customer>
        <legend>{texts.customerDetails}</legend>
        <p className="hint">{texts.customerOnly}</p>
        <div className="form-grid">
          {text("company_name", texts.companyName, companyName)}
          {text("tax_id", texts.taxId, taxId)}
        </div>
      </fieldset>
    </div>
  );
}
