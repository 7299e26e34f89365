/** Translated texts handed to the notification bell island. */
import type { Translate } from "../services/platform/i18n.ts";
import type { BellTexts } from "../islands/NotificationBell.tsx";
import { ALERT_TEMPLATES } from "../core/alert_rules.ts";

/** The bell's texts in the user's language (`alerts`: with its open alerts' section). */
export function bellTexts(t: Translate, alerts = false): BellTexts {
  return {
    notifications: t("notifications.title"),
    active: t("notifications.filter_active"),
    resolved: t("notifications.filter_resolved"),
    all: t("notifications.filter_all"),
    resolve: t("notifications.resolve"),
    stillOffline: t("notifications.still_offline"),
    empty: t("notifications.empty"),
    close: t("common.close"),
    viewAll: t("notifications.view_all"),
    minutesAgo: t("common.time_ago.minutes", { n: "{n}" }),
    hoursAgo: t("common.time_ago.hours", { n: "{n}" }),
    daysAgo: t("common.time_ago.days", { n: "{n}" }),
    justNow: t("common.time_ago.just_now"),
    resolveFailed: t("notifications.resolve_failed"),
    alerts: alerts
      ? {
        title: t("alert_views.bell.title"),
        viewAll: t("alert_views.bell.view_all"),
        templates: Object.fromEntries(ALERT_TEMPLATES.map((k) => [k, t(`alerts.templates.${k}`)])),
      }
      : null,
  };
}
