/** The price history chart of the zone detail page: a server-rendered SVG line chart. */
import type { Translate } from "../../services/platform/i18n.ts";
import type { ZoneHistoryEntry } from "../../core/zone_versions.ts";

const SERIES = [
  ["price_low", "#2563eb"],
  ["price_middle", "#16a34a"],
  ["price_high", "#d97706"],
  ["price_surplus", "#dc2626"],
  ["summer_price_low", "#9333ea"],
  ["winter_price_low", "#0891b2"],
] as const;

const W = 600;
const H = 220;
const PAD = { left: 48, right: 16, top: 16, bottom: 36 };

/** Line chart of the last 5 history entries (oldest left), or the empty text. */
export function PriceHistoryChart(
  { t, history }: { t: Translate; history: ZoneHistoryEntry[] },
) {
  const P = (k: string) => t(`zones.zone_detail.price_history.${k}`);
  const last = history.slice(0, 5).reverse();
  if (last.length === 0) return <p className="muted" data-testid="no-history">{P("empty")}</p>;
  const series = SERIES.filter(([k]) => last.some((e) => e[k] !== 0));
  const shown = series.length ? series : SERIES.slice(0, 1);
  const max = Math.max(0.01, ...last.flatMap((e) => shown.map(([k]) => e[k])));
  const x = (i: number) =>
    PAD.left + (last.length === 1 ? 0.5 : i / (last.length - 1)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - v / max) * (H - PAD.top - PAD.bottom);
  const date = (e: ZoneHistoryEntry) => e.effective_from.slice(0, 10);
  return (
    <figure className="zone-history" data-testid="price-history">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={P("title")}>
        <line x1={PAD.left} y1={y(0)} x2={W - PAD.right} y2={y(0)} className="axis" />
        <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={y(0)} className="axis" />
        <text x={4} y={PAD.top + 4} className="tick">{max.toFixed(2)}</text>
        <text x={4} y={y(0)} className="tick">0</text>
        {last.map((e, i) => (
          <text key={i} x={x(i)} y={H - 12} textAnchor="middle" className="tick">{date(e)}</text>
        ))}
        {shown.map(([k, color]) => (
          <g key={k}>
            <polyline
              fill="none"
              stroke={color}
              strokeWidth={2}
              points={last.map((e, i) => `${x(i)},${y(e[k])}`).join(" ")}
            />
            {last.map((e, i) => (
              <circle key={i} cx={x(i)} cy={y(e[k])} r={3} fill={color}>
                <title>{`${P(k)} ${date(e)}: ${e[k]}`}</title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
      <figcaption className="legend">
        {shown.map(([k, color]) => (
          <span key={k}>
            <i style={{ background: color }} /> {P(k)}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
