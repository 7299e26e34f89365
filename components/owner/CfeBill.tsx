/**
 * The building's CFE bill (issue 34): the form that enters it (station, period, kWh — empty
 * when a master meter fills them —, kW, amount, the PDF) and, per station, its CFE bills
 * against the tenants' bills and the station bill of the same periods: the energy no unit was
 * billed for, the money recovered (with a bar), the owner's balance, the trend by period.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { StationReconciliation } from "../../services/owner/cfe_bills.ts";
import { CFE_PDF_MAX_BYTES } from "../../core/cfe_bill.ts";
import { periodLabel } from "../../core/periods.ts";
import { formatterOf } from "../../core/format.ts";
import { Field, SelectField } from "../Field.tsx";
import { errAttrs } from "../Field.tsx";
import { Card, type ListColumn, ResponsiveList } from "../kit/mod.ts";

/** What the form shows and posts back (text as typed). */
export interface CfeBillFormValues {
  station: string;
  period: string;
  kwh: string;
  kw: string;
  amount: string;
}

/** Props of {@link CfeBillForm}. */
export interface CfeBillFormProps {
  t: Translate;
  action: string;
  /** The stations to choose from (one: chosen, no select). */
  stations: { id: number; name: string; has_master: boolean }[];
  periods: string[];
  values: CfeBillFormValues;
  /** Field errors, translated. */
  errors: Record<string, string>;
  error?: string;
}

/** The form entering a CFE bill (multipart: it carries the PDF). */
export function CfeBillForm(p: CfeBillFormProps) {
  const { t, values: v, errors: e } = p;
  const F = (k: string, x?: Record<string, string | number>) => t(`cfe_bill.form.${k}`, x);
  const master = p.stations.some((s) => s.has_master);
  const num = (id: "kwh" | "kw" | "amount", hint?: string) => (
    <Field id={`cfe_${id}`} label={F(id)} hint={hint} error={e[id]}>
      <input
        id={`cfe_${id}`}
        name={id}
        type="text"
        inputMode="decimal"
        defaultValue={v[id]}
        required={id === "amount" || (id === "kwh" && !master)}
        {...errAttrs(`cfe_${id}`, e[id])}
      />
    </Field>
  );
  return (
    <form
      className="card cfe-bill-form"
      method="post"
      action={p.action}
      encType="multipart/form-data"
      data-testid="cfe-bill-form"
    >
      <h2>{F("title")}</h2>
      {p.error && <p className="alert alert-error" role="alert">{p.error}</p>}
      <div className="form-grid">
        {p.stations.length === 1
          ? <input type="hidden" name="station" value={String(p.stations[0].id)} />
          : (
            <SelectField
              id="station"
              label={F("station")}
              value={v.station}
              error={e.station}
              options={p.stations.map((s) => ({ value: String(s.id), label: s.name }))}
            />
          )}
        <SelectField
          id="period"
          label={F("period")}
          value={v.period}
          error={e.period}
          options={p.periods.map((x) => ({ value: x, label: periodLabel(t, x) }))}
        />
        {num("kwh", master ? F("kwh_master_hint") : undefined)}
        {num("kw", F("kw_hint"))}
        {num("amount", F("amount_hint"))}
        <Field
          id="cfe_pdf"
          label={F("pdf")}
          hint={F("pdf_hint", { size: CFE_PDF_MAX_BYTES / 1024 / 1024 })}
          error={e.pdf}
        >
          <input
            id="cfe_pdf"
            name="pdf"
            type="file"
            accept="application/pdf,.pdf"
            {...errAttrs("cfe_pdf", e.pdf)}
          />
        </Field>
      </div>
      <button type="submit" className="btn btn-primary">{F("save")}</button>
    </form>
  );
}

type Row = StationReconciliation["rows"][number];

/** The recovered percentage as a bar (100 % at four fifths of the track). */
function RecoveredBar({ pct, label }: { pct: number; label: string }) {
  const width = Math.max(0, Math.min(pct, 125)) / 1.25;
  const tone = pct >= 100 ? "ok" : pct >= 80 ? "warn" : "low";
  return (
    <span className="cfe-bar" role="img" aria-label={label}>
      <span className={`cfe-bar-fill cfe-bar-${tone}`} style={{ width: `${width.toFixed(1)}%` }} />
      <span className="cfe-bar-mark" />
    </span>
  );
}

/** One station's CFE bills reconciled, newest period first. */
export function CfeReconciliation(
  { t, station, pdfHref }: {
    t: Translate;
    station: StationReconciliation;
    pdfHref: (period: string) => string;
  },
) {
  const R = (k: string, x?: Record<string, string | number>) =>
    t(`cfe_bill.reconciliation.${k}`, x);
  const f = formatterOf(t);
  // The currency is in the headings' note: MXN alone, so the cells carry the amount only.
  const mxn = (c: number) => f.money(c, "MXN").replace(/\s*MXN$/, "");
  const rows = [...station.rows].reverse();
  const latest = rows[0];
  const nowrap = "nowrap";
  const columns: ListColumn<Row>[] = [
    {
      label: R("period"),
      primary: true,
      cell: (r) => (
        <>
          {periodLabel(t, r.period)}
          {r.has_pdf && (
            <a className="cfe-pdf" href={pdfHref(r.period)} data-testid={`cfe-pdf-${r.period}`}>
              {R("download_pdf")}
            </a>
          )}
        </>
      ),
    },
    {
      label: R("cfe_kwh"),
      numeric: true,
      className: nowrap,
      cell: (r) => f.number(r.cfe_kwh, 2),
    },
    {
      label: R("billed_kwh"),
      numeric: true,
      className: nowrap,
      cell: (r) => f.number(r.billed_kwh, 2),
    },
    {
      label: R("unbilled"),
      numeric: true,
      cell: (r) => (
        <>
          <span className={nowrap}>{f.number(r.unbilled_kwh, 2)}</span>{" "}
          {r.unbilled_pct !== null && (
            <span className={nowrap}>{`(${f.percent(r.unbilled_pct, 1)})`}</span>
          )}
        </>
      ),
      cellAttrs: (r) => ({ "data-testid": `unbilled-${r.period}` }),
    },
    { label: R("cfe_amount"), numeric: true, className: nowrap, cell: (r) => mxn(r.cfe_amount) },
    { label: R("tenants"), numeric: true, className: nowrap, cell: (r) => mxn(r.tenants_amount) },
    {
      label: R("station_bill"),
      numeric: true,
      className: nowrap,
      cell: (r) => mxn(r.station_amount),
    },
    {
      label: R("recovered"),
      cell: (r) => (
        <span className="cfe-recovered-cell">
          <span className="cfe-recovered">
            <RecoveredBar pct={r.recovered_pct} label={f.percent(r.recovered_pct, 1)} />
            <span className="num cfe-pct">{f.percent(r.recovered_pct, 1)}</span>
          </span>
          <small className="muted cfe-net">
            {R("net_recovered")}:{" "}
            <span className="cfe-pct">{f.percent(r.net_recovered_pct, 1)}</span>
          </small>
        </span>
      ),
      cellAttrs: (r) => ({ "data-testid": `recovered-${r.period}` }),
    },
    {
      label: R("balance"),
      numeric: true,
      className: nowrap,
      cell: (r) => <span className={r.balance < 0 ? "negative" : undefined}>{mxn(r.balance)}</span>,
    },
  ];
  return (
    <Card
      title={R("title", { station: station.station_name })}
      className="cfe-reconciliation"
      data-testid="cfe-reconciliation"
      data-station={station.station_id}
    >
      {latest
        ? (
          <p className="cfe-summary" data-testid="cfe-summary">
            {R("summary", {
              period: periodLabel(t, latest.period),
              unbilled: f.kwh(latest.unbilled_kwh),
              unbilled_pct: latest.unbilled_pct === null ? "—" : f.percent(latest.unbilled_pct, 1),
              recovered: f.percent(latest.recovered_pct, 1),
            })}
            {latest.kwh_source === "master_meter" && <>{R("from_master")}</>}
          </p>
        )
        : <p className="muted" data-testid="cfe-empty">{R("empty")}</p>}
      {rows.length > 0 && (
        <ResponsiveList
          label={R("trend")}
          columns={columns}
          rows={rows}
          rowKey={(r) => r.period}
          rowAttrs={(r) => ({ "data-period": r.period })}
          framed={false}
          className="num-table cfe-trend"
          testId="cfe-trend"
        />
      )}
      <p className="hint">{R("explained")}</p>
    </Card>
  );
}
