/**
 * The owner's finances roadmap (`/customer/finances`, spec 001 section 2): eight planned
 * features with priority and eta, the banner, the early-access and contact-support buttons (the
 * latter opens the contact dialog) and the Available Now section. Static.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { Card, PageHeader, StatusBadge } from "../kit/mod.ts";

/** The planned features in the spec's order, with their priority and eta. */
const ROADMAP = [
  ["cash_flow_dashboard", "high", "coming_soon"],
  ["tenant_payment_tracking", "high", "coming_soon"],
  ["profit_loss_statements", "high", "coming_soon"],
  ["tax_reports", "high", "coming_soon"],
  ["revenue_forecasting", "medium", "future_release"],
  ["expense_management", "medium", "future_release"],
  ["multi_currency_reports", "low", "future_release"],
  ["accounting_export", "low", "future_release"],
] as const;

/** What the owner has already, with where it is. */
const AVAILABLE = [
  ["current_billing", "/customer/billing"],
  ["basic_analytics", "/customer"],
  // Issue 31: CFDI invoices through Facturapi, with the owner's fiscal data in Settings.
  ["electronic_invoicing", "/customer/settings#fiscal"],
] as const;

const TONE = { high: "red", medium: "yellow", low: "grey" } as const;

/** The roadmap page. */
export function FinancesPage({ t }: { t: Translate }) {
  const F = (k: string) => t(`customer.finances_placeholder.${k}`);
  return (
    <>
      <PageHeader title={F("title")} subtitle={F("subtitle")} />
      <Card title={F("banner.title")} className="roadmap-banner" data-testid="roadmap-banner">
        <ul className="roadmap-facts">
          <li>{F("banner.planned")}</li>
          <li>{F("banner.high_priority")}</li>
          <li>{F("banner.launch")}</li>
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
            <li key={key}>
              <a href={href}>
                <strong>{F(`available_now.${key}`)}</strong>
              </a>
              <p className="muted">{F(`available_now.${key}_description`)}</p>
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}
