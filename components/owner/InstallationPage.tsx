/**
 * An owner's installation (`/customer/installations/{id}`, spec 001 section 2): the header with
 * the month selector and the invoice download (a language dialog, no JavaScript), the four
 * cards, the month's billing summary and the units with their phase split; the error screen.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { Installation, InstallationUnit } from "../../services/owner/mod.ts";
import { periodLabel } from "../../core/periods.ts";
import { Stat } from "../HomePage.tsx";
import { Card, PageHeader, StatusBadge } from "../kit/mod.ts";
import { num } from "./format.ts";
import { formatterOf } from "../../core/format.ts";

/** Props of {@link InstallationPage}. */
interface InstallationPageProps {
  t: Translate;
  data: Installation;
  /** The station's address on one line. */
  address: string;
  months: string[];
  /** The invoice download failed (shown once, after the redirect back). */
  invoiceError: boolean;
  /** The reader's language: the invoice's default when it is one of the two offered. */
  lang: string;
}

const COLORS = ["var(--primary, #0b6b4f)", "var(--info, #1f5fae)", "var(--warning, #b7791f)"];

/** The phase A/B/C pie: a conic gradient with its legend (kWh and share). */
function PhasePie({ t, phases }: { t: Translate; phases: number[] }) {
  const total = phases.reduce((s, p) => s + p, 0);
  let at = 0;
  const stops = phases.map((p, i) => {
    const from = at;
    at += total > 0 ? (p / total) * 100 : 100 / 3;
    return `${COLORS[i]} ${from.toFixed(1)}% ${at.toFixed(1)}%`;
  });
  const names = ["phase_a", "phase_b", "phase_c"];
  return (
    <figure
      className="phase-pie"
      aria-label={t("customer.installation_detail.units.phase_distribution")}
    >
      <div className="pie" style={{ background: `conic-gradient(${stops.join(", ")})` }} />
      <figcaption>
        <ul>
          {phases.map((p, i) => (
            <li key={names[i]} data-phase={names[i]}>
              <span className="dot" style={{ background: COLORS[i] }} />
              {t(`customer.installation_detail.units.${names[i]}`)}: {num(p, 2, "kWh")}
              {total > 0 ? ` (${Math.round((p / total) * 100)}%)` : ""}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

function UnitCard(
  { t, u, stationId, month }: {
    t: Translate;
    u: InstallationUnit;
    stationId: number;
    month: string;
  },
) {
  const U = (k: string) => t(`customer.installation_detail.units.${k}`);
  return (
    <article className="item-card" data-testid="owner-unit" data-sensor-id={u.sensor.id}>
      <div className="item-head">
        <strong>{u.name}</strong>
        <StatusBadge tone={u.sensor.status === "online" ? "green" : "red"}>
          {t(`customer.unit_detail.${u.sensor.status === "online" ? "online" : "offline"}`)}
        </StatusBadge>
      </div>
      <dl>
        <dt>{U("tenant")}</dt>
        <dd>{u.tenant ?? U("no_tenant")}</dd>
        <dt>{U("monthly_kwh")}</dt>
        <dd data-testid="unit-kwh">{num(u.monthKwh, 2, "kWh")}</dd>
      </dl>
      <h3 className="small-title">{U("phase_distribution")}</h3>
      <PhasePie t={t} phases={u.phases} />
      <a
        className="btn btn-sm"
        href={`/customer/installations/${stationId}/unit/${u.sensor.id}?month=${month}`}
      >
        {U("details")}
      </a>
    </article>
  );
}

function InvoiceDialog(
  { t, id, month, lang }: { t: Translate; id: number; month: string; lang: string },
) {
  const L = (k: string) => t(`customer.installation_detail.language_dialog.${k}`);
  return (
    <details className="lang-menu invoice-dialog">
      <summary className="btn" data-testid="invoice-open">
        {t("customer.installation_detail.download_invoice")}
      </summary>
      <form
        method="get"
        action={`/customer/installations/${id}/invoice`}
        data-testid="invoice-form"
      >
        <fieldset>
          <legend>{L("title")}</legend>
          <input type="hidden" name="month" value={month} />
          <label className="radio">
            <input type="radio" name="language" value="en" defaultChecked={lang !== "es"} />
            {L("english")}
          </label>
          <label className="radio">
            <input type="radio" name="language" value="es" defaultChecked={lang === "es"} />
            {L("spanish")}
          </label>
        </fieldset>
        <div className="page-actions">
          <a className="btn btn-secondary" href={`/customer/installations/${id}?month=${month}`}>
            {L("cancel")}
          </a>
          <button type="submit" className="btn">{L("download")}</button>
        </div>
      </form>
    </details>
  );
}

/** The installation page. */
export function InstallationPage(
  { t, data, address, months, invoiceError, lang }: InstallationPageProps,
) {
  const { money: cents } = formatterOf(t);
  const I = (k: string, p?: Record<string, string | number>) =>
    t(`customer.installation_detail.${k}`, p);
  const s = data.station;
  const b = data.billing;
  const online = s.status === "online";
  return (
    <>
      <p>
        <a href="/customer">← {I("back")}</a>
      </p>
      <PageHeader
        title={s.name}
        subtitle={address}
        actions={
          <>
            <form method="get" className="inline-form month-form">
              <label className="field">
                <span>{I("month")}</span>
                <select name="month" defaultValue={data.month} data-testid="month-select">
                  {months.map((m) => <option key={m} value={m}>{periodLabel(t, m)}</option>)}
                </select>
              </label>
              <button type="submit" className="btn btn-secondary">
                {t("billing.pickers.show")}
              </button>
            </form>
            {/* Only a month with a finalized station bill has an invoice to download. */}
            {b && <InvoiceDialog t={t} id={s.id} month={data.month} lang={lang} />}
          </>
        }
      />
      {invoiceError && (
        <p className="alert alert-error" role="alert" data-testid="invoice-error">
          {I("errors.download")}
        </p>
      )}
      <div className="stats" data-testid="installation-cards">
        <Stat
          label={I("cards.status")}
          value={t(`customer.dashboard.installations.${online ? "online" : "offline"}`)}
        />
        <Stat label={I("cards.units")} value={data.units.length} />
        <Stat label={I("cards.monthly_energy")} value={num(data.monthKwh, 2, "kWh")} />
        <div className="stat" data-testid="total-profit">
          <div className="stat-label">{I("cards.total_profit")}</div>
          <div className="stat-value">
            {data.totalProfit ? cents(data.totalProfit.cents, data.totalProfit.currency) : "—"}
          </div>
          <div className="muted small">
            {data.totalProfit ? I("cards.total_profit_hint") : I("cards.no_profit")}
          </div>
        </div>
      </div>
      <Card
        title={I("billing_summary.title", { month: periodLabel(t, data.month) })}
        data-testid="billing-summary"
      >
        {b
          ? (
            <dl className="facts">
              <dt>{I("billing_summary.energy")}</dt>
              <dd>{num(b.energy, 2, "kWh")}</dd>
              <dt>{I("billing_summary.commission")}</dt>
              <dd>{cents(b.commission, b.currency)}</dd>
              <dt>{I("billing_summary.tax")}</dt>
              <dd>{cents(b.tax, b.currency)}</dd>
              <dt>{I("billing_summary.total")}</dt>
              <dd>
                <strong>{cents(b.total, b.currency)}</strong>
              </dd>
            </dl>
          )
          : <p className="muted">{I("billing_summary.no_bill")}</p>}
      </Card>
      <Card title={I("units.title")}>
        {data.units.length === 0
          ? <p className="muted" data-testid="no-units">{I("units.empty")}</p>
          : (
            <div className="owner-units">
              {data.units.map((u) => (
                <UnitCard key={u.sensor.id} t={t} u={u} stationId={s.id} month={data.month} />
              ))}
            </div>
          )}
      </Card>
    </>
  );
}

/** The error screen of the owner's pages: title, message, Go Back and Try Again. */
export function OwnerError(
  { t, title, message, back, retry }: {
    t: Translate;
    title: string;
    message: string;
    back: string;
    retry?: string;
  },
) {
  const E = (k: string) => t(`customer.installation_detail.errors.${k}`);
  return (
    <section className="card" role="alert" data-testid="owner-error">
      <h1>{title}</h1>
      <p>{message}</p>
      <div className="page-actions">
        <a className="btn btn-secondary" href={back}>{E("go_back")}</a>
        {retry && <a className="btn" href={retry}>{E("try_again")}</a>}
      </div>
    </section>
  );
}
