/** The notifications list page with its filters and resolve buttons. */
import type { Translate } from "../services/platform/i18n.ts";
import type { Notification } from "../core/types.ts";
import { timeAgo } from "../core/time_ago.ts";

/** Props of {@link NotificationsPage}. */
interface NotificationsPageProps {
  t: Translate;
  status: "active" | "resolved" | "all";
  items: Notification[];
  now: number;
  error?: string;
  /** The reader's open alerts (issue 30): how many and where to read them; null: none told. */
  alerts?: { count: number; href: string } | null;
}

/** Formats a time-ago label. */
function agoLabel(t: Translate, then: number, now: number): string {
  const a = timeAgo(then, now);
  return a.unit === "just_now"
    ? t("common.time_ago.just_now")
    : t(`common.time_ago.${a.unit}`, { n: a.n });
}

/** Filters active (default), resolved, all; resolve; 'Device still offline' for sensors. */
export function NotificationsPage(
  { t, status, items, now, error, alerts }: NotificationsPageProps,
) {
  const known = error && /^(errors|notifications)\.[a-z_]+$/.test(error) ? t(error) : null;
  return (
    <div className="notif-page">
      <div className="page-head">
        <h1>{t("notifications.title")}</h1>
      </div>
      {alerts && alerts.count > 0 && (
        <p className="alert alert-warning notif-alerts-note" data-testid="page-alerts">
          {t("alert_views.bell.title")}: <strong>{alerts.count}</strong>{" "}
          <a href={alerts.href}>{t("alert_views.bell.view_all")}</a>
        </p>
      )}
      <nav className="tabs" aria-label={t("notifications.filter")}>
        {(["active", "resolved", "all"] as const).map((f) => (
          <a
            key={f}
            className="tab"
            href={`/notifications?status=${f}`}
            aria-current={f === status ? "page" : undefined}
          >
            {t(`notifications.filter_${f}`)}
          </a>
        ))}
      </nav>
      {known && (
        <div className="alert alert-error" role="alert" style={{ marginBottom: "1rem" }}>
          {known}
        </div>
      )}
      {items.length === 0 && <div className="card empty">{t("notifications.empty")}</div>}
      <ul style={{ listStyle: "none", padding: 0, margin: 0 }}>
        {items.map((n) => (
          <li key={n.id} className="notif-item">
            <div className="title">{n.link ? <a href={n.link}>{n.title}</a> : n.title}</div>
            <div>{n.message}</div>
            <div className="notif-meta">
              <span>
                <span
                  className={`badge badge-${
                    n.priority === "high" ? "red" : n.priority === "medium" ? "yellow" : "grey"
                  }`}
                >
                  {t(`notifications.priority.${n.priority}`)}
                </span>{" "}
                {agoLabel(t, n.created_at, now)}
              </span>
              {n.status === "active" && (n.type === "sensor_offline"
                ? <span className="badge badge-yellow">{t("notifications.still_offline")}</span>
                : (
                  <form method="post" action={`/notifications/${n.id}/resolve`}>
                    <button type="submit" className="btn btn-sm btn-secondary">
                      {t("notifications.resolve")}
                    </button>
                  </form>
                ))}
              {n.status === "resolved" && (
                <span className="badge badge-green">{t("notifications.filter_resolved")}</span>
              )}
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
