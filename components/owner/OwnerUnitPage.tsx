/**
 * A unit of an owner's installation (`/customer/installations/{id}/unit/{sensorId}`, spec 001
 * section 2): the head with the online badge, four cards, the phases, reliability with the
 * uptime bar, the recent disconnections, the unit's facts and the offline explanation. The live
 * parts refresh every 30 s (LiveRefresh).
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { OwnerUnit } from "../../services/owner/mod.ts";
import { dataQuality, LISTED_DISCONNECTIONS, lowUptime } from "../../core/owner_rules.ts";
import { Island } from "../render.tsx";
import { Stat } from "../HomePage.tsx";
import { Card, Facts, PageHeader, ResponsiveList, StatusBadge } from "../kit/mod.ts";
import LiveRefresh from "../../islands/LiveRefresh.tsx";
import { durationText } from "../devices/sensor/format.ts";
import { num, when } from "./format.ts";

/** Props of {@link OwnerUnitPage}. */
interface OwnerUnitPageProps {
  t: Translate;
  d: OwnerUnit;
  offset: number;
}

/** The unit page. */
export function OwnerUnitPage({ t, d, offset }: OwnerUnitPageProps) {
  const U = (k: string, p?: Record<string, string | number>) => t(`customer.unit_detail.${k}`, p);
  const online = d.sensor.status === "online";
  const status = U(online ? "online" : "offline");
  const up = d.uptime;
  const pct = up.percent === null ? "—" : `${up.percent.toFixed(1)}%`;
  const phaseNames = ["phase_a", "phase_b", "phase_c"];
  const tenant = d.tenant ?? t("customer.installation_detail.units.no_tenant");
  return (
    <>
      <p>
        <a href={`/customer/installations/${d.station.id}?month=${d.month}`}>← {U("back")}</a>
      </p>
      <PageHeader
        title={
          <>
            {d.name}{" "}
            <StatusBadge tone={online ? "green" : "red"} testId="unit-badge">{status}</StatusBadge>
          </>
        }
        subtitle={`${U("station", { name: d.station.name })} · ${U("tenant", { name: tenant })}`}
      />
      <Island
        of={LiveRefresh}
        props={{
          seconds: 30,
          errorText: U("errors.failed_unit_data"),
          retry: U("errors.try_again"),
        }}
      />
      <div className="stats" data-live="unit-cards" data-testid="unit-cards">
        <Stat label={U("cards.status")} value={status} />
        <Stat label={U("cards.current_power")} value={num(d.powerW, 2, "W")} />
        <Stat label={U("cards.monthly_usage")} value={num(d.monthKwh, 2, "kWh")} />
        <Stat label={U("cards.uptime")} value={pct} />
      </div>
      <Card title={U("phases.title")} data-live="phases" data-testid="unit-phases">
        <div className="owner-phases">
          {d.phases.map((p, i) => (
            <div key={phaseNames[i]} className="item-card" data-phase={phaseNames[i]}>
              <strong>{U(`phases.${phaseNames[i]}`)}</strong>
              <Facts
                rows={[
                  [U("phases.power"), num(p.power, 2)],
                  [U("phases.current"), num(p.current, 2)],
                  [U("phases.voltage"), num(p.voltage, 2)],
                  [U("phases.energy"), num(p.energy, 2)],
                ]}
              />
            </div>
          ))}
        </div>
      </Card>
      <Card title={U("reliability.title")} data-live="reliability" data-testid="unit-reliability">
        <dl className="facts">
          <dt>{U("reliability.uptime")}</dt>
          <dd>{pct}</dd>
          <dt>{U("reliability.online_duration")}</dt>
          <dd>{durationText(up.onlineSeconds)}</dd>
          <dt>{U("reliability.disconnections")}</dt>
          <dd data-testid="disconnection-count">{up.total}</dd>
          <dt>{U("reliability.last_update")}</dt>
          <dd>{when(t, d.sensor.last_seen, offset)}</dd>
        </dl>
        <div
          className="uptime-bar"
          role="meter"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={up.percent ?? 0}
          aria-label={U("reliability.uptime")}
        >
          <span
            className={lowUptime(up.percent) ? "low" : undefined}
            style={{ width: `${up.percent ?? 0}%` }}
          />
        </div>
        {lowUptime(up.percent) && (
          <p className="muted" data-testid="low-uptime">{U("reliability.low_uptime_note")}</p>
        )}
      </Card>
      <Card
        title={U("disconnections.title")}
        data-live="disconnections"
        data-testid="unit-disconnections"
      >
        <ResponsiveList
          label={U("disconnections.title")}
          rows={up.recent}
          framed={false}
          rowKey={(e) => e.at}
          empty={<p className="muted">{U("disconnections.empty")}</p>}
          columns={[
            { label: U("disconnections.date"), primary: true, cell: (e) => when(t, e.at, offset) },
            {
              label: U("disconnections.status"),
              aside: true,
              cell: (e) => (
                <StatusBadge tone={e.ongoing ? "red" : "green"}>
                  {U(`disconnections.${e.ongoing ? "ongoing" : "resolved"}`)}
                </StatusBadge>
              ),
            },
            {
              label: U("disconnections.duration"),
              cell: (e) => durationText(e.durationSeconds),
            },
          ]}
        />
        {up.total > LISTED_DISCONNECTIONS && (
          <p className="muted" data-testid="disconnections-more">
            {U("disconnections.showing", { n: up.total })}
          </p>
        )}
      </Card>
      <Card title={U("unit_info.title")} data-live="unit-info" data-testid="unit-info">
        <dl className="facts">
          <dt>{U("unit_info.unit_id")}</dt>
          <dd className="mono">{d.unitId ?? "—"}</dd>
          <dt>{U("unit_info.tenant")}</dt>
          <dd>{tenant}</dd>
          <dt>{U("unit_info.installation")}</dt>
          <dd>{d.station.name}</dd>
          <dt>{U("unit_info.sensor_type")}</dt>
          <dd>{U("unit_info.sensor_type_value")}</dd>
          <dt>{U("unit_info.serial_number")}</dt>
          <dd className="mono">{d.sensor.serial_number}</dd>
          <dt>{U("unit_info.current_status")}</dt>
          <dd>{status}</dd>
          <dt>{U("unit_info.data_quality")}</dt>
          <dd>{U(`unit_info.${dataQuality(up.percent)}`)}</dd>
          <dt>{U("unit_info.power_factor")}</dt>
          <dd>{Math.round(d.powerFactor * 100)}%</dd>
          <dt>{U("unit_info.last_reading")}</dt>
          <dd>{when(t, d.readingAt, offset)}</dd>
        </dl>
      </Card>
      {!online && (
        <Card
          title={U("offline_card.title")}
          className="alert-card"
          role="status"
          data-testid="unit-offline"
        >
          <p>{U("offline_card.message")}</p>
        </Card>
      )}
    </>
  );
}
