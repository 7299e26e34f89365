/**
 * The tenant's part of `/user/settings` (spec 001, entities: the tenant profile): their units
 * (unit number and station), the unit's area, billing address and emergency contact (a form of
 * its own, posted to `<settings>/profile`), and the lease dates of their tenancies. Personal
 * and contact info are the account form's above it.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { Lease } from "../../services/tenant/leases.ts";
import { ADDRESS_FIELDS, EMERGENCY_FIELDS, type TenantProfile } from "../../core/tenant_profile.ts";
import { textFieldsOf } from "../Field.tsx";
import { Card } from "../kit/mod.ts";

/** Props of {@link TenantProfileSection}. */
export interface TenantSectionProps {
  /** Where the profile form posts. */
  action: string;
  profile: TenantProfile;
  /** Field values as typed (a refused post), by form field name; else the profile's. */
  typed?: Record<string, string>;
  errors?: Record<string, string>;
  error?: string;
  saved?: boolean;
  /** Their tenancies, the current ones first. */
  leases: Lease[];
}

/** A tenant's lease dates: unit, station, from and to (or "Current"). */
function LeaseCard({ t, leases }: { t: Translate; leases: Lease[] }) {
  const T = (k: string) => t(`devices.tenancy.${k}`);
  return (
    <Card title={T("lease")} headingId="lease" data-testid="leases">
      {leases.length === 0
        ? <p className="hint">{T("no_leases")}</p>
        : (
          <ul className="tenancy-list">
            {leases.map((l, i) => (
              <li key={i} data-testid="lease">
                <strong>{l.unit} · {l.station}</strong>
                <span className="nowrap">
                  {l.from ?? T("since_start")} – {l.to ?? T("current")}
                </span>
              </li>
            ))}
          </ul>
        )}
    </Card>
  );
}

/** The form's value of each field: as typed, else the profile's. */
function valuesOf(p: TenantSectionProps): Record<string, string> {
  const v: Record<string, string> = {};
  for (const f of ADDRESS_FIELDS) v[`billing_${f}`] = p.profile.billing_address[f];
  for (const f of EMERGENCY_FIELDS) v[`emergency_${f}`] = p.profile.emergency_contact[f];
  v.unit_area_m2 = p.profile.unit_area_m2 === null ? "" : String(p.profile.unit_area_m2);
  return { ...v, ...p.typed };
}

/** The tenant profile card, its form and the lease dates. */
export function TenantProfileSection({ t, ...p }: TenantSectionProps & { t: Translate }) {
  const P = (k: string) => t(`tenant_profile.${k}`);
  const v = valuesOf(p);
  const fe = p.errors ?? {};
  const current = p.leases.filter((l) => l.to === null);
  const text = textFieldsOf(v, fe);
  const field = (id: string, label: string, auto?: string, type = "text") =>
    text(id, label, { type, autoComplete: auto });
  const AUTO: Record<string, string> = {
    street: "address-line1",
    postal_code: "postal-code",
    city: "address-level2",
    state: "address-level1",
    country: "country-name",
  };
  return (
    <>
      <Card
        title={P("title")}
        headingId="tenant-profile"
        data-testid="tenant-profile"
      >
        {p.saved && <div className="alert alert-success" role="status">{P("saved")}</div>}
        {p.error && <div className="alert alert-error" role="alert">{p.error}</div>}
        <dl className="info-list" data-testid="tenant-units" style={{ marginBottom: "1rem" }}>
          <dt>{P("units")}</dt>
          <dd>
            {current.length === 0
              ? P("no_units")
              : current.map((l) => `${l.unit} · ${l.station}`).join(", ")}
          </dd>
        </dl>
        <form method="post" action={p.action} className="form" noValidate>
          <h3>{P("unit")}</h3>
          <div className="form-grid">
            {field("unit_area_m2", P("fields.unit_area_m2"), "off")}
          </div>
          <h3>{P("billing_address")}</h3>
          <div className="form-grid">
            {ADDRESS_FIELDS.map((f) => field(`billing_${f}`, P(`fields.${f}`), AUTO[f]))}
          </div>
          <h3>{P("emergency_contact")}</h3>
          <div className="form-grid">
            {field("emergency_name", P("fields.name"), "off")}
            {field("emergency_phone", P("fields.phone"), "off", "tel")}
            {field("emergency_relationship", P("fields.relationship"), "off")}
          </div>
          <div className="form-actions">
            <button type="submit" className="btn">{P("save")}</button>
          </div>
        </form>
      </Card>
      <LeaseCard t={t} leases={p.leases} />
    </>
  );
}
