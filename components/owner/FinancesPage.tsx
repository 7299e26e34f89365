/**
 * The owner's finances (`/customer/finances`, spec 001 section 2): their real figures first
 * (what the tenants were billed, paid and still owe, what is owed to the provider, in all and
 * by period: `ownerFinances`, the same aggregation as the admin's), then the spec's roadmap.
 * Features that exist now are listed under Available Now, not as planned, and the launch is
 * dated from today (the next two quarters), never in the past.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { OwnerFigures, OwnerFinances } from "../../services/finances/mod.ts";
import { Card, type ListColumn, PageHeader, ResponsiveList, StatusBadge } from "../kit/mod.ts";
import { Tile } from "../finances/parts.tsx";
import { formatterOf } from "../../core/format.ts";
import { periodLabel } from "../../core/periods.ts";

/** The planned features in the spec's order, with their priority and eta. */
const ROADMAP = [
  ["profit_loss_statements", "high", "coming_soon"],
  ["tax_reports", "high", "coming_soon"],
  ["revenue_forecasting", "medium", "future_release"],
  ["expense_management", "medium", "future_release"],
  ["multi_currency_reports", "low", "future_release"],
  ["accounting_export", "low", "future_release"],
] as const;

/** What the owner has already, with where it is (the first two were on the roadmap). */
const AVAILABLE = [
  ["cash_flow_dashboard", "#owner-figures"],
  ["tenant_payment_tracking", "/customer/billing"],
  ["current_billing", "/customer/billing"],
  ["basic_analytics", "/customer"],
  // Issue 31: CFDI invoices through Facturapi, with the owner's fiscal data in Settings.
  ["electronic_invoicing", "/customer/settings#fiscal"],
] as const;

const TONE = { high: "red", medium: "yellow", low: "grey" } as const;

/** The next two quarters after `month` (`YYYY-MM`): `{from: {q, year}, to: {q, year}}`. */
export function launchQuarters(month: string) {
  const [y, m] = month.split("-").map(Number);
  const next = (
    q: number,
    year: number,
  ) => (q === 4 ? { q: 1, year: year + 1 } : { q: q + 1, year });
  const from = next(Math.floor((m - 1) / 3) + 1, y);
  return { from, to: next(from.q, from.year) };
}

/** Props of {@link FinancesPage}. */
interface FinancesPageProps {
  t: Translate;
  /** The owner's figures, or null when they could not be read. */
  figures: OwnerFinances | null;
  /** Today's month (`YYYY-MM`), for the launch quarters. */
  month: string;
}

/** The owner's figures: tiles in all, then a row per period. */
function Figures({ t, f }: { t: Translate; f: OwnerFinances }) {
  const O = (k: string, p?: Record<string, string | number>) => t(`owner_finances.${k}`, p);
  const { money } = formatterOf(t);
  const m = (cents: number) => money(cents, f.currency);
  const columns: ListColumn<{ period: string } & OwnerFigures>[] = [
    { label: O("columns.period"), primary: true, cell: (r) => periodLabel(t, r.period) },
    { label: O("columns.billed"), numeric: true, cell: (r) => m(r.billed) },
    { label: O("columns.paid"), numeric: true, cell: (r) => m(r.paid) },
    { label: O("columns.pending"), numeric: true, cell: (r) => m(r.pending) },
    { label: O("columns.commission"), numeric: true, cell: (r) => m(r.commission) },
    { label: O("columns.fees"), numeric: true, cell: (r) => m(r.fees) },
    { label: O("columns.tax"), numeric: true, cell: (r) => m(r.tax) },
    { label: O("columns.owed"), numeric: true, cell: (r) => m(r.owed) },
  ];
  return (
    <section id="owner-figures" className="finance-section" data-testid="owner-figures">
      <div className="stats">
        <Tile
          label={O("tiles.billed")}
          value={m(f.total.billed)}
          sub={[O("tiles.bills", { bills: f.total.bills, paid: f.total.paid_bills })]}
          testId="owner-billed"
        />
        <Tile label={O("tiles.paid")} value={m(f.total.paid)} testId="owner-paid" />
        <Tile label={O("tiles.pending")} value={m(f.total.pending)} testId="owner-pending" />
        <Tile
          label={O("tiles.owed")}
          value={m(f.total.owed)}
          sub={[O("tiles.owed_parts", {
            commission: m(f.total.commission),
            fees: m(f.total.fees),
            tax: m(f.total.tax),
          })]}
          testId="owner-owed"
        />
      </div>
      <Card title={O("by_period")}>
        {f.periods.length === 0
          ? <p className="muted" data-testid="owner-figures-empty">{O("empty")}</p>
          : (
            <ResponsiveList
              label={O("by_period")}
              framed={false}
              className="dense"
              testId="owner-periods"
              columns={columns}
              rows={f.periods}
              rowKey={(r) => r.period}
              rowAttrs={(r) => ({ "data-period": r.period })}
            />
          )}
      </Card>
    </section>
  );
}

/** The page. */
export function FinancesPage({ t, figures, month }: FinancesPageProps) {
  const F = (k: string, p?: Record<string, string | number>) =>
    t(`customer.finances_placeholder.${k}`, p);
  const O = (k: string, p?: Record<string, string | number>) => t(`owner_finances.${k}`, p);
  const { from, to } = launchQuarters(month);
  return (
    <>
      <PageHeader title={F("title")} subtitle={O("subtitle")} />
      {figures
        ? <Figures t={t} f={figures} />
        : <p className="alert alert-error" role="alert">{O("load_failed")}</p>}
      <Card title={F("banner.title")} className="roadmap-banner" data-testid="roadmap-banner">
        <ul className="roadmap-facts">
          <li>{O("planned", { count: ROADMAP.length })}</li>
          <li>{O("high_priority", { count: ROADMAP.filter((r) => r[1] === "high").length })}</li>
          <li data-testid="roadmap-launch">
            {O("launch", {
              from: O("quarter", { q: from.q, year: from.year }),
              to: O("quarter", { q: to.q, year: to.year }),
            })}
          </li>
        </ul>
        <div className="page-actions">
          <button type="button" className="btn">{F("request_early_access")}</button>
          <a className="btn btn-secondary" href="#contact">{F("contact_support")}</a>
        </div>
      </Card>
      <div className="roadmap-grid" data-testid="roadmap">
        {ROADMAP.map(([key, priority, eta]) => (
          <article key={key} className="item-card" data-feature={key}>
            <div className="item-head">
              <strong>{F(`features.${key}.name`)}</strong>
              <StatusBadge tone={eta === "coming_soon" ? "blue" : "grey"}>
                {F(`eta.${eta}`)}
              </StatusBadge>
            </div>
            <p>{F(`features.${key}.description`)}</p>
            <p className="muted small">
              {F("priority_label")}:{" "}
              <StatusBadge tone={TONE[priority]}>{F(`priority.${priority}`)}</StatusBadge>
            </p>
          </article>
        ))}
      </div>
      <Card title={F("available_now.title")} data-testid="available-now">
        <ul className="roadmap-available">
          {AVAILABLE.map(([key, href]) => (
            <li key={key} data-feature={key}>
              <a href={href}>
                <strong>
                  {key in { current_billing: 1, basic_analytics: 1 }
                    ? F(`available_now.${key}`)
                    : F(`features.${key}.name`)}
                </strong>
              </a>
              <p className="muted">
                {key in { current_billing: 1, basic_analytics: 1 }
                  ? F(`available_now.${key}_description`)
                  : O(`available.${key}`)}
              </p>
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}
