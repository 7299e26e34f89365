/**
 * The readings around an alert's moment (issue 30), drawn on the server as inline SVG (no
 * script, nothing to load): the band between the lowest and highest reading of each quarter
 * hour, their average as a line, and a mark where the alert opened. The plot stretches to the
 * card's width (a phone's too) and keeps its height; its labels are HTML around it, so they keep
 * their size however wide the plot is drawn.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { AlertMoment } from "../../services/alerts/moment.ts";
import type { Formatter } from "../../core/format.ts";
import { localDateTime } from "../../core/local_time.ts";

/** Props of {@link AlertChart}. */
interface Props {
  t: Translate;
  moment: AlertMoment;
  f: Formatter;
  offsetMinutes: number;
}

/** The plot's own coordinates (stretched to the box by CSS). */
const W = 600;
const H = 200;
const HALF_BUCKET = 7.5 * 60_000;
type Point = AlertMoment["avg"][number];

/** A reading of `key` with its unit. */
function reading(key: string, v: number, f: Formatter): string {
  if (key.endsWith("_voltage")) return `${f.number(v, 1)} V`;
  if (key.endsWith("_current")) return `${f.number(v, 2)} A`;
  if (key.endsWith("_pf")) return f.number(v, 2);
  if (key.endsWith("apparent_power")) return `${f.number(v / 1000, 2)} kVA`;
  return f.kw(v / 1000);
}

/** The chart, or a line saying why there is none. */
export function AlertChart({ t, moment: m, f, offsetMinutes }: Props) {
  const A = (k: string) => t(`alert_views.chart.${k}`);
  const title = `${t(`alert_views.keys.${m.key}`)} · ${A("window")}`;
  if (m.unavailable || m.avg.length === 0) {
    return (
      <figure className="alert-chart" data-testid="alert-chart">
        <figcaption>{title}</figcaption>
        <p className="muted">{A(m.unavailable ? "unavailable" : "empty")}</p>
      </figure>
    );
  }
  const values = [...m.min, ...m.max, ...m.avg].map((p) => p.value);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 1e-9) {
    lo -= Math.abs(lo) * 0.05 || 1;
    hi += Math.abs(hi) * 0.05 || 1;
  }
  const pad = (hi - lo) * 0.08;
  lo -= pad;
  hi += pad;
  const x = (ts: number) => ((ts - m.from) / (m.to - m.from)) * W;
  const y = (v: number) => H - ((v - lo) / (hi - lo)) * H;
  const xy = (p: Point) => `${x(p.ts + HALF_BUCKET).toFixed(1)},${y(p.value).toFixed(1)}`;
  const maxBy = new Map(m.max.map((p) => [p.ts, p]));
  const band = m.min.filter((p) => maxBy.has(p.ts));
  const bandPath = band.length > 0
    ? [...band.map(xy), ...band.toReversed().map((p) => xy(maxBy.get(p.ts)!))].join(" ")
    : "";
  const zero = lo < 0 && hi > 0 ? y(0) : null;
  const time = (ts: number) => localDateTime(ts, offsetMinutes).slice(11, 16);
  const label = `${title}: ${reading(m.key, Math.min(...values), f)} – ${
    reading(m.key, Math.max(...values), f)
  }`;
  return (
    <figure className="alert-chart" data-testid="alert-chart">
      <figcaption>{title}</figcaption>
      <div className="alert-chart-plot">
        <div className="alert-chart-y" aria-hidden="true">
          <span>{reading(m.key, hi, f)}</span>
          <span>{reading(m.key, lo, f)}</span>
        </div>
        <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label={label}>
          {zero !== null && <line className="zero" x1="0" x2={W} y1={zero} y2={zero} />}
          {bandPath && <polygon className="band" points={bandPath} />}
          <polyline className="avg" points={m.avg.map(xy).join(" ")} />
          <line className="opened" x1={x(m.at)} x2={x(m.at)} y1="0" y2={H} />
        </svg>
        <div className="alert-chart-x" aria-hidden="true">
          <span className="from">{time(m.from)}</span>
          <span className="opened" style={{ left: `${((x(m.at) / W) * 100).toFixed(1)}%` }}>
            {A("opened")} {time(m.at)}
          </span>
          <span className="to">{time(m.to)}</span>
        </div>
      </div>
      <p className="alert-chart-legend muted">
        <span className="swatch avg" /> {A("average")} <span className="swatch band" /> {A("range")}
      </p>
    </figure>
  );
}
