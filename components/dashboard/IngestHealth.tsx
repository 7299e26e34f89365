/**
 * The ingest health section of the system uptime page: whether ingest runs (or stopped
 * reporting), messages per minute received, stored and dropped per ingest process and in
 * total, dropped messages by reason, store errors and the time of each last report. Drawn
 * on the server from `db/ingest_health.ts`'s reports; no JavaScript.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import {
  DROP_REASONS,
  type DropReason,
  type IngestHealth as Health,
} from "../../core/ingest_health.ts";
import { type ListColumn, ResponsiveList } from "../kit/mod.ts";
import { DISPLAY_TIME_ZONE } from "../users/format.ts";

/** Props of {@link IngestHealth}. */
interface IngestHealthProps {
  t: Translate;
  lang: string;
  /** Null when the reports could not be read. */
  health: Health | null;
}

const STATUS_CLASS: Record<Health["status"], string> = {
  running: "alert-success",
  failing: "alert-error",
  stale: "alert-warning",
  not_running: "alert-error",
};

/** The section. */
export function IngestHealth({ t, lang, health }: IngestHealthProps) {
  const H = (k: string, p?: Record<string, string | number>) => t(`ingest_health.${k}`, p);
  const num = new Intl.NumberFormat(lang);
  const time = new Intl.DateTimeFormat(lang, {
    day: "2-digit",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZone: DISPLAY_TIME_ZONE,
  });
  const when = (ms: number) => time.format(new Date(ms));
  return (
    <section className="card ingest-health" data-testid="ingest-health" aria-labelledby="ih-title">
      <h2 id="ih-title">{H("title")}</h2>
      <p className="muted small">{H("subtitle")}</p>
      {health === null
        ? (
          <div className="alert alert-error" role="alert" data-testid="ingest-health-error">
            {t("uptime.errors.load_failed")}
          </div>
        )
        : (
          <>
            <div
              className={`alert ${STATUS_CLASS[health.status]}`}
              role={health.status === "running" ? "status" : "alert"}
              data-testid="ingest-status"
              data-status={health.status}
            >
              <strong>{H(`status.${health.status}`)}</strong>
              {health.status === "not_running" && <p>{H("hints.not_running")}</p>}
              {health.status === "failing" && <p>{H("hints.failing")}</p>}
              {health.status === "stale" && health.lastReportAt !== null && (
                <p>{H("hints.stale", { time: when(health.lastReportAt) })}</p>
              )}
              {health.status === "running" && health.lastReportAt !== null && (
                <p>{H("last_update", { time: when(health.lastReportAt) })}</p>
              )}
            </div>
            {health.instances.length > 0 && (
              <>
                {health.instances.length > 1 && <h3>{H("total")}</h3>}
                <div className="stats" data-testid="ingest-total">
                  {(["received", "stored", "dropped"] as const).map((k) => (
                    <div className="stat" key={k}>
                      <div className="stat-label">{H(`tiles.${k}`)}</div>
                      <div className="stat-value" data-testid={`ingest-total-${k}`}>
                        {num.format(health.total.perMinute[k])}
                      </div>
                    </div>
                  ))}
                  <div className="stat">
                    <div className="stat-label">{H("errors.store")}</div>
                    <div className="stat-value" data-testid="ingest-total-store-errors">
                      {num.format(health.total.errors.store)}
                    </div>
                  </div>
                </div>
                <h3>{H("per_minute.title")}</h3>
                <ul className="ih-instances" data-testid="ingest-instances">
                  {health.instances.map((r) => (
                    <li key={r.instance} data-instance={r.instance} className="ih-instance">
                      <div className="ih-head">
                        <span className="mono">{r.instance}</span>
                        {r.stale && <span className="badge badge-yellow">{H("stale_badge")}</span>}
                      </div>
                      <div className="muted small">
                        {H("host", { host: r.host, pid: r.pid })} ·{" "}
                        {H(r.connected ? "connected" : "disconnected")} ·{" "}
                        {H("last_update", { time: when(r.reportedAt) })}
                      </div>
                      <dl className="ih-figures">
                        {(["received", "stored", "dropped"] as const).map((k) => (
                          <div key={k}>
                            <dt>{H(`per_minute.${k}`)}</dt>
                            <dd>{num.format(r.perMinute[k])}</dd>
                          </div>
                        ))}
                        <div>
                          <dt>{H("errors.store")}</dt>
                          <dd>{num.format(r.errors.store)}</dd>
                        </div>
                      </dl>
                    </li>
                  ))}
                </ul>
                <h3>{H("dropped.title")}</h3>
                <ResponsiveList
                  label={H("dropped.title")}
                  testId="ingest-dropped"
                  className="num-table"
                  framed={false}
                  rows={DROP_REASONS}
                  rowKey={(reason) => reason}
                  rowAttrs={(reason) => ({ "data-reason": reason })}
                  columns={[
                    {
                      label: H("dropped.reason"),
                      primary: true,
                      cell: (reason) =>
                        H(`dropped.reasons.${reason}`),
                    },
                    ...(health.instances.length > 1
                      ? health.instances.map((r): ListColumn<DropReason> => ({
                        label: r.instance,
                        numeric: true,
                        cell: (reason) =>
                          num.format(r.dropped[reason] ?? 0),
                      }))
                      : []),
                    {
                      label: health.instances.length > 1 ? H("total") : H("dropped.count"),
                      numeric: true,
                      aside: health.instances.length <= 1,
                      cellAttrs: (reason) => ({ "data-testid": `dropped-${reason}` }),
                      cell: (reason) =>
                        num.format(health.total.dropped[reason]),
                    },
                  ]}
                />
                <p className="muted small">
                  {H("totals.received")}: {num.format(health.total.received)} ·{" "}
                  {H("totals.stored")}: {num.format(health.total.stored)}
                </p>
              </>
            )}
          </>
        )}
    </section>
  );
}
