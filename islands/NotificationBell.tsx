/**
 * The header's notification bell, as the server renders it: a link to the notifications
 * page with the unread count, and the panel (hidden) that the browser side fills. Its
 * browser side is the plain script `NotificationBell.client.ts` (no React): the count polled
 * every 30 s, the panel with the active, resolved or all notifications, and resolving one.
 * Without JavaScript the bell stays a link to the notifications page. The reader's open alerts
 * nobody acknowledged (issue 30) count in the badge too and have their own section at the top of
 * the panel, with a link to where they are read; they are not notifications.
 */
import { badgeText } from "../core/time_ago.ts";

/** Texts of the bell, translated on the server. */
export interface BellTexts {
  notifications: string;
  active: string;
  resolved: string;
  all: string;
  resolve: string;
  stillOffline: string;
  empty: string;
  close: string;
  viewAll: string;
  minutesAgo: string;
  hoursAgo: string;
  daysAgo: string;
  justNow: string;
  resolveFailed: string;
  /** The open alerts' section: its title, its link's text, each rule's name by template (null: no section). */
  alerts: { title: string; viewAll: string; templates: Record<string, string> } | null;
}

/** The reader's open alerts: how many, their page, and each one's page (`{id}`, `{station}`). */
export interface BellAlertsProps {
  count: number;
  href: string;
  item: string;
}

/** The panel's filters, in order. */
const BELL_FILTERS = ["active", "resolved", "all"] as const;

/** Props of the bell. */
export interface NotificationBellProps {
  unread: number;
  /** Null for a reader told of no alerts (a tenant). */
  alerts: BellAlertsProps | null;
  texts: BellTexts;
}

/** The bell. */
export default function NotificationBell({ unread, alerts, texts }: NotificationBellProps) {
  const badge = badgeText(unread + (alerts?.count ?? 0));
  return (
    <div className="notif-bell">
      <a
        className="icon-btn"
        href="/notifications"
        title={texts.notifications}
        data-testid="notification-bell"
      >
        <svg
          className="icon"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
        >
          <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
          <path d="M13.73 21a2 2 0 0 1-3.46 0" />
        </svg>
        <span className="visually-hidden">{texts.notifications}</span>
        {badge && <span className="badge-count" data-testid="notification-count">{badge}</span>}
      </a>
      <div
        className="notif-panel"
        id="notif-panel"
        role="dialog"
        aria-labelledby="notif-panel-title"
        hidden
      >
        <div className="modal-head">
          <h2 id="notif-panel-title">{texts.notifications}</h2>
          <button type="button" className="icon-btn" data-close>
            <span aria-hidden="true">✕</span>
            <span className="visually-hidden">{texts.close}</span>
          </button>
        </div>
        {alerts && texts.alerts && (
          <section
            className="notif-alerts"
            aria-labelledby="notif-alerts-title"
            data-testid="bell-alerts"
            hidden={alerts.count === 0}
          >
            <h3 id="notif-alerts-title">
              {texts.alerts.title}{" "}
              <span className="badge badge-red" data-testid="bell-alerts-count">
                {alerts.count}
              </span>
            </h3>
            <ul className="notif-list" />
            <a href={alerts.href}>{texts.alerts.viewAll}</a>
          </section>
        )}
        <div className="notif-filters" role="group" aria-labelledby="notif-panel-title">
          {BELL_FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              className={`btn btn-sm ${f === "active" ? "" : "btn-ghost"}`}
              aria-pressed={f === "active"}
              data-filter={f}
            >
              {texts[f]}
            </button>
          ))}
        </div>
        <ul className="notif-list" aria-live="polite" />
        <div className="modal-foot">
          <a href="/notifications">{texts.viewAll}</a>
        </div>
      </div>
    </div>
  );
}
