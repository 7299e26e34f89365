/**
 * The sensor page's Monthly Uptime Statistics card (spec 000 sections 3 and 9): month
 * navigation, uptime with its colour band, online and offline durations, previous months,
 * the 10 most recent disconnect events and the consumption missed while offline.
 */
import type { Translate } from "../../../services/platform/i18n.ts";
import { missedEnergyKwh, sensorUptimeColor } from "../../../core/uptime.ts";
import { durationText, fixed, localDateTime } from "./format.ts";

/** A disconnect event as `monthlyUptime()` answers it. */
interface UptimeEventView {
  disconnect_time: string;
  reconnect_time: string | null;
  still_disconnected: boolean;
  duration_seconds: number;
}

/** What `monthlyUptime()` answers. */
interface MonthlyUptimeView {
  month: string;
  uptime_percent: number | null;
  online_duration_seconds: number;
  offline_duration_seconds: number;
  previous_months: { month: string; uptime_percent: number | null }[];
  total_disconnect_events: number;
  disconnect_events: UptimeEventView[];
}

/** Props of the card. */
export interface UptimeCardProps {
  t: Translate;
  locale: string;
  offsetMinutes: number;
  /** The shown month, `YYYY-MM`. */
  month: string;
  /** Links of the neighbouring months (null when there is none to show). */
  prevHref: string;
  nextHref: string | null;
  /** The uptime, or null when loading it failed. */
  data: MonthlyUptimeView | null;
  /** The refused `?month=` value, if any. */
  invalidMonth: string | null;
}

const pct = (locale: string, n: number) => `${fixed(locale, n, 1)}%`;

/** The card. */
export function UptimeCard(
  { t, locale, offsetMinutes, month, prevHref, nextHref, data, invalidMonth }: UptimeCardProps,
) {
  const U = (k: string, p?: Record<string, string | number>) =>
    t(`devices.sensor_data.monthly_uptime.${k}`, p);
  return (
    <section className="card uptime-card" aria-labelledby="monthly-uptime" data-testid="uptime">
      <div className="uptime-head">
        <h2 id="monthly-uptime">{U("title")}</h2>
        <nav className="month-nav" aria-label={U("title")}>
          <a className="btn btn-sm btn-secondary" href={prevHref} data-testid="prev-month">
            ← {U("previous_month")}
          </a>
          <strong data-testid="month">{month}</strong>
          {nextHref && (
            <a className="btn btn-sm btn-secondary" href={nextHref} data-testid="next-month">
              {U("next_month")} →
            </a>
          )}
        </nav>
      </div>
      {invalidMonth !== null && (
        <div className="alert alert-warning" role="alert" data-testid="invalid-month">
          {U("invalid_month", { month: invalidMonth })}
        </div>
      )}
      {data === null
        ? (
          <div className="alert alert-error" role="alert" data-testid="uptime-failed">
            {U("load_failed")}
          </div>
        )
        : data.uptime_percent === null
        ? <p className="hint" data-testid="uptime-empty">{U("no_data")}</p>
        : <UptimeBody t={t} locale={locale} offsetMinutes={offsetMinutes} data={data} />}
    </section>
  );
}

function UptimeBody(
  { t, locale, offsetMinutes, data }: {
    t: Translate;
    locale: string;
    offsetMinutes: number;
    data: MonthlyUptimeView;
  },
) {
  const U = (k: string, p?: Record<string, string | number>) =>
    t(`devices.sensor_data.monthly_uptime.${k}`, p);
  const percent = data.uptime_percent ?? 0;
  const missed = missedEnergyKwh(data.offline_duration_seconds);
  const hours = data.offline_duration_seconds / 3600;
  return (
    <>
      <div className="uptime-figures">
        <div
          className={`uptime-big uptime-${sensorUptimeColor(percent)}`}
          data-testid="uptime-percent"
          data-band={sensorUptimeColor(percent)}
        >
          <span className="uptime-value">{pct(locale, percent)}</span>
          <span className="uptime-label">{U("uptime")}</span>
        </div>
        <dl className="info-list">
          <dt>{U("online_duration")}</dt>
          <dd data-testid="online-duration">{durationText(data.online_duration_seconds)}</dd>
          <dt>{U("offline_duration")}</dt>
          <dd data-testid="offline-duration">{durationText(data.offline_duration_seconds)}</dd>
        </dl>
      </div>
      <div className="missed-energy">
        <span>{U("missed_energy")}</span>
        <strong data-testid="missed-energy">{`${fixed(locale, missed, 2)} kWh`}</strong>
        <span className="hint">
          {U("missed_energy_note", { hours: fixed(locale, hours, 2) })}
        </span>
      </div>
      <h3>{U("previous_months")}</h3>
      <ul className="previous-months" data-testid="previous-months">
        {data.previous_months.map((p) => (
          <li key={p.month}>
            <span>{p.month}</span>
            {p.uptime_percent === null
              ? <span className="muted">—</span>
              : (
                <span className={`uptime-chip uptime-${sensorUptimeColor(p.uptime_percent)}`}>
                  {pct(locale, p.uptime_percent)}
                </span>
              )}
          </li>
        ))}
      </ul>
      <h3>{U("disconnect_events")}</h3>
      {data.disconnect_events.length === 0
        ? <p className="hint" data-testid="no-events">{U("no_events")}</p>
        : (
          <>
            <p className="hint">{U("total_events", { count: data.total_disconnect_events })}</p>
            <div className="table-wrap">
              <table className="data events-table" data-testid="events">
                <thead>
                  <tr>
                    <th>{U("disconnected_at")}</th>
                    <th>{U("reconnected_at")}</th>
                    <th>{U("duration")}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.disconnect_events.map((e) => (
                    <tr key={e.disconnect_time} data-ongoing={e.still_disconnected || undefined}>
                      <td>{localDateTime(Date.parse(e.disconnect_time), offsetMinutes)}</td>
                      <td>
                        {e.reconnect_time === null
                          ? <span className="badge badge-red">{U("ongoing")}</span>
                          : localDateTime(Date.parse(e.reconnect_time), offsetMinutes)}
                      </td>
                      <td>{durationText(e.duration_seconds)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
    </>
  );
}
