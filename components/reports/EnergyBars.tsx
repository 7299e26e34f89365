/** A bar chart of energy (kWh) and cost per period, drawn as SVG on the server (no script). */

/** One bar pair. */
interface EnergyBar {
  label: string;
  energy: number;
  /** Cost in cents. */
  cost: number;
}

/** Props of {@link EnergyBars}. */
interface EnergyBarsProps {
  bars: EnergyBar[];
  title: string;
  energyLabel: string;
  costLabel: string;
  currency: string;
}

/** The chart: energy bars on the left scale, cost bars on the right scale. */
export function EnergyBars({ bars, title, energyLabel, costLabel, currency }: EnergyBarsProps) {
  const W = 640;
  const H = 220;
  const pad = { l: 44, r: 54, t: 12, b: 34 };
  const maxE = Math.max(1, ...bars.map((b) => b.energy));
  const maxC = Math.max(1, ...bars.map((b) => b.cost / 100));
  const slot = (W - pad.l - pad.r) / Math.max(1, bars.length);
  const bw = Math.min(22, slot / 3);
  const y = (v: number, max: number) => pad.t + (H - pad.t - pad.b) * (1 - v / max);
  const short = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(1)}K` : v.toFixed(0));
  return (
    <figure className="report-bars">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} preserveAspectRatio="none">
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line
              x1={pad.l}
              x2={W - pad.r}
              y1={y(maxE * f, maxE)}
              y2={y(maxE * f, maxE)}
              stroke="var(--border)"
            />
            <text
              x={pad.l - 6}
              y={y(maxE * f, maxE) + 4}
              textAnchor="end"
              fontSize="11"
              fill="var(--muted)"
            >
              {short(maxE * f)}
            </text>
            <text x={W - pad.r + 6} y={y(maxC * f, maxC) + 4} fontSize="11" fill="var(--muted)">
              {short(maxC * f)}
            </text>
          </g>
        ))}
        {bars.map((b, i) => {
          const x = pad.l + slot * i + slot / 2;
          return (
            <g key={b.label}>
              <rect
                x={x - bw}
                y={y(b.energy, maxE)}
                width={bw}
                height={H - pad.b - y(b.energy, maxE)}
                fill="#0ea5e9"
              >
                <title>{`${b.label}: ${b.energy.toFixed(2)} kWh`}</title>
              </rect>
              <rect
                x={x}
                y={y(b.cost / 100, maxC)}
                width={bw}
                height={H - pad.b - y(b.cost / 100, maxC)}
                fill="#6366f1"
              >
                <title>{`${b.label}: ${(b.cost / 100).toFixed(2)} ${currency}`}</title>
              </rect>
              <text x={x} y={H - pad.b + 16} textAnchor="middle" fontSize="11" fill="var(--muted)">
                {b.label}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="report-legend report-legend-inline">
        <span>
          <span className="legend-dot" style={{ background: "#0ea5e9" }} /> {energyLabel}
        </span>
        <span>
          <span className="legend-dot" style={{ background: "#6366f1" }} /> {costLabel} ({currency})
        </span>
      </figcaption>
    </figure>
  );
}
