/** Device status dots and badges, in the colours of spec 000 section 4. */
import type { DeviceStatus } from "../../core/devices.ts";
import type { Translate } from "../../services/platform/i18n.ts";

/** The colour of a status: online green, error or offline red, alarm yellow, else grey. */
type StatusColour = "green" | "red" | "yellow" | "grey";

/** The colour of a device status (spec 000 section 4). */
function statusColour(status: string): StatusColour {
  switch (status) {
    case "online":
      return "green";
    case "error":
    case "offline":
      return "red";
    case "alarm":
      return "yellow";
    default:
      return "grey";
  }
}

/** A known status, or `unknown`. */
export function asStatus(status: unknown): DeviceStatus {
  return status === "online" || status === "offline" || status === "error" ||
      status === "alarm"
    ? status
    : "unknown";
}

/** The words of every status, for the live islands. */
export function statusTexts(t: Translate): Record<DeviceStatus, string> {
  return {
    online: t("devices.status.online"),
    offline: t("devices.status.offline"),
    error: t("devices.status.error"),
    alarm: t("devices.status.alarm"),
    unknown: t("devices.status.unknown"),
  };
}

/** The 'time ago' words with their placeholders, for the live islands. */
export function timeAgoTexts(t: Translate) {
  return {
    justNow: t("devices.time_ago.just_now"),
    minutes: t("devices.time_ago.minutes", { n: "{n}" }),
    hours: t("devices.time_ago.hours", { n: "{n}" }),
    days: t("devices.time_ago.days", { n: "{n}" }),
  };
}

/** The coloured dot alone, labelled for assistive technology. */
export function StatusDot({ t, status }: { t: Translate; status: string }) {
  const s = asStatus(status);
  return (
    <span
      className={`status-dot dot-${statusColour(s)}`}
      role="img"
      aria-label={t("dashboard.station_list.status_label", { status: t(`devices.status.${s}`) })}
      title={t(`devices.status.${s}`)}
      data-status={s}
    />
  );
}

/** The dot with the status word beside it. */
export function StatusLabel({ t, status }: { t: Translate; status: string }) {
  const s = asStatus(status);
  return (
    <span className="status-label" data-status={s}>
      <span className={`status-dot dot-${statusColour(s)}`} aria-hidden="true" />
      {t(`devices.status.${s}`)}
    </span>
  );
}
