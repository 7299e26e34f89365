/**
 * A chart card with mode tabs (links, so they work without JavaScript; each reloads the page
 * with the chosen mode) and one series drawn by the TenantChart island: the tenant's and the
 * owner's dashboards.
 */
import { Island } from "./render.tsx";
import TenantChart, { type TenantChartKind } from "../islands/TenantChart.tsx";
import { Card } from "./kit/mod.ts";

/** Props of {@link ModeChart}. */
interface ModeChartProps<M extends string> {
  title: string;
  modes: readonly M[];
  mode: M;
  /** The link and the tab text of a mode. */
  href: (mode: M) => string;
  tab: (mode: M) => string;
  kind: TenantChartKind;
  points: readonly { label: string; value: number }[];
  /** The series' name with its unit. */
  axis: string;
  caption: string;
  labelHeading: string;
  noData: string;
}

/** The card. */
export function ModeChart<M extends string>(p: ModeChartProps<M>) {
  return (
    <Card title={p.title}>
      <nav className="tabs tenant-tabs" aria-label={p.title}>
        {p.modes.map((m) => (
          <a
            key={m}
            className="tab"
            href={p.href(m)}
            aria-current={m === p.mode ? "page" : undefined}
          >
            {p.tab(m)}
          </a>
        ))}
      </nav>
      <Island
        of={TenantChart}
        props={{
          kind: p.kind,
          labels: p.points.map((x) => x.label),
          series: [{ name: p.axis, values: p.points.map((x) => x.value) }],
          caption: p.caption,
          labelHeading: p.labelHeading,
          noData: p.noData,
          name: p.mode,
        }}
      />
    </Card>
  );
}
