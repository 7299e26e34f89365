/**
 * The sensor data page's live cards: status, power with apparent power, current, total
 * energy and the three phase cards, refreshed every 15 s (spec 000 section 9) from the
 * realtime and status APIs. Server-rendered with the values of the page; a failed poll
 * keeps the last values and says so. When the sensor comes online, the page's 'MQTT
 * Connection Issue' panel is hidden.
 */
import { useState } from "react";
import { usePoll } from "./use_poll.ts";
import {
  asStatus,
  lastSeenText,
  type Status,
  StatusCard,
  type StatusTexts,
} from "./_device_status.tsx";

/** Polling interval of the sensor data page. */
const SENSOR_POLL_MS = 15_000;

/** Texts of the cards, translated on the server. */
interface SensorLiveTexts extends StatusTexts {
  power: string;
  /** "Apparent power: {value} VA". */
  apparentPower: string;
  current: string;
  totalEnergy: string;
  phases: [string, string, string];
  phasePower: string;
  phaseCurrent: string;
  phaseVoltage: string;
  phasePf: string;
  phaseEnergy: string;
  /** "Failed to load sensor data". */
  loadFailed: string;
  noReadings: string;
}

/** Props of the cards. */
interface SensorLiveProps {
  sensorId: number;
  /** Locale of number formatting (es, en, de). */
  locale: string;
  status: string;
  /** Worded last seen when the page was rendered. */
  lastSeen: string;
  /** Latest values keyed by measurement (total_power, phase_a_voltage, ...). */
  measurements: Record<string, number>;
  texts: SensorLiveTexts;
}

/** A number with 2 decimals in `locale`, or a dash when missing. */
function fmt2(locale: string, n: number | undefined): string {
  if (typeof n !== "number" || !Number.isFinite(n)) return "—";
  return n.toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** A card of a live total: its label, the value with its unit, and an optional line under it. */
function Reading({ testId, label, value, unit, sub }: {
  testId: string;
  label: string;
  value: string;
  unit: string;
  sub?: string;
}) {
  return (
    <div className="stat" data-testid={testId}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">
        {value} <small>{unit}</small>
      </div>
      {sub !== undefined && <div className="stat-sub">{sub}</div>}
    </div>
  );
}

/** The cards. */
export default function SensorLive(
  { sensorId, locale, status: status0, lastSeen, measurements, texts }: SensorLiveProps,
) {
  const [status, setStatus] = useState<Status>(asStatus(status0));
  const [seen, setSeen] = useState(lastSeen);
  const [m, setM] = useState<Record<string, number>>(measurements);

  const { error } = usePoll(
    async (signal) => {
      const [rt, st] = await Promise.all([
        fetch(`/api/measurements/${sensorId}/realtime`, { credentials: "same-origin", signal }),
        fetch(`/api/devices/${sensorId}/status`, { credentials: "same-origin", signal }),
      ]);
      if (!rt.ok || !st.ok) throw new Error(`status ${rt.status}/${st.status}`);
      const live = await rt.json();
      const own = await st.json();
      const s = asStatus(own.status);
      setStatus(s);
      setSeen(lastSeenText(typeof own.last_seen === "number" ? own.last_seen : null, texts));
      if (live && typeof live.measurements === "object" && live.measurements) {
        setM(live.measurements as Record<string, number>);
      }
      const panel = document.querySelector<HTMLElement>("[data-mqtt-issue]");
      if (panel && s === "online") panel.hidden = true;
    },
    { intervalMs: SENSOR_POLL_MS },
    sensorId,
  );
  const failed = error !== null;

  const f = (k: string) => fmt2(locale, m[k]);
  const empty = Object.keys(m).length === 0;
  return (
    <>
      {failed && (
        <div className="alert alert-error sensor-live-alert" role="alert">{texts.loadFailed}</div>
      )}
      <div className="stats sensor-cards">
        <StatusCard testId="sensor-status" status={status} seen={seen} texts={texts} />
        <Reading
          testId="sensor-power"
          label={texts.power}
          value={f("total_power")}
          unit="W"
          sub={texts.apparentPower.replace("{value}", f("total_apparent_power"))}
        />
        <Reading
          testId="sensor-current"
          label={texts.current}
          value={f("total_current")}
          unit="A"
        />
        <Reading
          testId="sensor-energy"
          label={texts.totalEnergy}
          value={f("total_energy_kwh")}
          unit="kWh"
        />
      </div>
      {empty && <p className="hint">{texts.noReadings}</p>}
      <div className="phase-cards">
        {(["a", "b", "c"] as const).map((p, i) => (
          <section className="card phase-card" key={p} data-testid={`phase-${p}`}>
            <h2>{texts.phases[i]}</h2>
            <dl className="info-list">
              <dt>{texts.phasePower}</dt>
              <dd>{f(`phase_${p}_power`)} W</dd>
              <dt>{texts.phaseCurrent}</dt>
              <dd>{f(`phase_${p}_current`)} A</dd>
              <dt>{texts.phaseVoltage}</dt>
              <dd>{f(`phase_${p}_voltage`)} V</dd>
              <dt>{texts.phasePf}</dt>
              <dd>{f(`phase_${p}_pf`)}</dd>
              <dt>{texts.phaseEnergy}</dt>
              <dd>{f(`phase_${p}_energy_kwh`)} kWh</dd>
            </dl>
          </section>
        ))}
      </div>
    </>
  );
}
