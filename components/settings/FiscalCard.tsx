/**
 * The fiscal data card of Settings (issue 31), for tenants and owners: RFC, legal name, fiscal
 * regime (the SAT's c_RegimenFiscal), ZIP of the fiscal address and CFDI use (c_UsoCFDI;
 * G03 unless chosen). Its own form, posted to `<settings>/fiscal`; "remove" posts to
 * `<settings>/fiscal/remove`.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { DEFAULT_USE, type FiscalData, REGIMES, USES } from "../../core/fiscal.ts";
import { errAttrs, FieldError, TextField } from "../Field.tsx";
import { Card } from "../kit/mod.ts";

/** Props of {@link FiscalCard}. */
export interface FiscalCardProps {
  action: string;
  data: FiscalData | null;
  /** Values as typed in a refused post. */
  typed?: Record<string, string>;
  errors?: Record<string, string>;
  error?: string;
  saved?: boolean;
}

/** The card. */
export function FiscalCard({ t, ...p }: FiscalCardProps & { t: Translate }) {
  const F = (k: string) => t(`fiscal.${k}`);
  const v: Record<string, string> = { ...(p.data ?? {}), ...p.typed };
  const fe = p.errors ?? {};
  const select = (id: "tax_system" | "use", codes: string[], dflt = "") => (
    <div className="field">
      <label htmlFor={id}>{F(`fields.${id}`)}</label>
      <select id={id} name={id} defaultValue={v[id] ?? dflt} {...errAttrs(id, fe[id])}>
        {!dflt && <option value="">{F("choose")}</option>}
        {codes.map((c) => (
          <option key={c} value={c}>
            {c} · {F(`${id === "use" ? "uses" : "regimes"}.${c}`)}
          </option>
        ))}
      </select>
      <FieldError id={id} message={fe[id]} />
    </div>
  );
  return (
    <Card title={F("title")} headingId="fiscal" data-testid="fiscal-data">
      {p.saved && <div className="alert alert-success" role="status">{F("saved")}</div>}
      {p.error && <div className="alert alert-error" role="alert">{p.error}</div>}
      <p className="hint">{F("hint")}</p>
      <form method="post" action={p.action} className="form" noValidate>
        <div className="form-grid">
          <TextField id="rfc" label={F("fields.rfc")} value={v.rfc} error={fe.rfc} />
          <TextField
            id="legal_name"
            label={F("fields.legal_name")}
            autoComplete="organization"
            value={v.legal_name}
            error={fe.legal_name}
          />
          {select("tax_system", Object.keys(REGIMES))}
          <TextField
            id="zip"
            label={F("fields.zip")}
            autoComplete="postal-code"
            value={v.zip}
            error={fe.zip}
          />
          {select("use", Object.keys(USES), DEFAULT_USE)}
        </div>
        <div className="form-actions">
          <button type="submit" className="btn">{F("save")}</button>
        </div>
      </form>
      {p.data && (
        <form method="post" action={`${p.action}/remove`} className="form">
          <button type="submit" className="btn btn-secondary">{F("remove")}</button>
        </form>
      )}
    </Card>
  );
}
