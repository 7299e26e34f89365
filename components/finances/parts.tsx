/** Pieces of the finance pages: a tile with a sub line, a list of figures, money from cents. */
import type { ReactNode } from "react";
import { Island } from "../render.tsx";
import TenantChart, { type TenantChartKind } from "../../islands/TenantChart.tsx";

/** Cents with two decimals and the currency: `44834, "MXN"` → `448.34 MXN`. */
/** Integer cents as the reader writes money (the `money` of `core/format.ts`). */
export type Money = (cents: number, currency: string) => string;

/** A tile: label, value and muted lines under it. */
export function Tile(
  { label, value, sub, testId }: {
    label: string;
    value: ReactNode;
    sub?: ReactNode[];
    testId?: string;
  },
) {
  return (
    <div className="stat" data-testid={testId}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
      {sub?.map((s, i) => <div key={i} className="stat-sub">{s}</div>)}
    </div>
  );
}

/** A list of labelled figures (`<dl>`); the last one can be a total. */
export function Figures(
  { rows, total }: { rows: [string, ReactNode][]; total?: [string, ReactNode] },
) {
  return (
    <dl className="figures">
      {rows.map(([k, v]) => (
        <div key={k} className="figure">
          <dt>{k}</dt>
          <dd className="num">{v}</dd>
        </div>
      ))}
      {total && (
        <div className="figure figure-total">
          <dt>{total[0]}</dt>
          <dd className="num">{total[1]}</dd>
        </div>
      )}
    </dl>
  );
}

/** Revenue and profit (cents) per label on one axis, with the numbers as a table. */
export function RevenueProfitChart(
  p: {
    kind: TenantChartKind;
    labels: string[];
    revenue: { name: string; cents: number[] };
    profit: { name: string; cents: number[] };
    caption: string;
    labelHeading: string;
    noData: string;
    name: string;
  },
) {
  return (
    <Island
      of={TenantChart}
      props={{
        kind: p.kind,
        shareAxis: true,
        labels: p.labels,
        series: [p.revenue, p.profit].map((s) => ({
          name: s.name,
          values: s.cents.map((x) => x / 100),
        })),
        caption: p.caption,
        labelHeading: p.labelHeading,
        noData: p.noData,
        name: p.name,
      }}
    />
  );
}
