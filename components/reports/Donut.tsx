/** A donut chart drawn as SVG on the server: one arc per part, with a legend. */

/** One part of the donut. */
interface DonutPart {
  label: string;
  value: number;
  /** Text shown in the legend (the formatted value). */
  text: string;
  colour: string;
}

/** Props of {@link Donut}. */
interface DonutProps {
  parts: DonutPart[];
  /** Text in the middle (the total). */
  centre: string;
  title: string;
}

const R = 42;
const C = 2 * Math.PI * R;

/** The donut and its legend. */
export function Donut({ parts, centre, title }: DonutProps) {
  const total = parts.reduce((s, p) => s + Math.max(0, p.value), 0);
  let offset = 0;
  return (
    <figure className="report-donut">
      <svg viewBox="0 0 120 120" role="img" aria-label={title} width="160" height="160">
        <circle cx="60" cy="60" r={R} fill="none" stroke="var(--border)" strokeWidth="16" />
        {total > 0 && parts.map((p) => {
          const len = (Math.max(0, p.value) / total) * C;
          const el = (
            <circle
              key={p.label}
              cx="60"
              cy="60"
              r={R}
              fill="none"
              stroke={p.colour}
              strokeWidth="16"
              strokeDasharray={`${len} ${C - len}`}
              strokeDashoffset={-offset}
              transform="rotate(-90 60 60)"
            />
          );
          offset += len;
          return el;
        })}
        <text x="60" y="64" textAnchor="middle" fontSize="10" fontWeight="700" fill="currentColor">
          {centre}
        </text>
      </svg>
      <figcaption>
        <ul className="report-legend">
          {parts.map((p) => (
            <li key={p.label}>
              <span className="legend-dot" style={{ background: p.colour }} />
              <span>{p.label}</span>
              <strong>{p.text}</strong>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
