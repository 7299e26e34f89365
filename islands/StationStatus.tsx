/**
 * The station data page's status cards (station status, active sensors) and its sensors'
 * status labels, refreshed every 30 s (spec 000 section 9) from the station's status and
 * its sensors. Server-rendered with the values of the page; failures keep the last values.
 */
import { useState } from "react";
import { usePoll } from "./use_poll.ts";
import {
  asStatus,
  COLOURS,
  lastSeenText,
  type Status,
  StatusCard,
  type StatusTexts,
} from "./_device_status.tsx";

/** Polling interval of the station data page. */
const STATION_POLL_MS = 30_000;

/** Texts of the cards, translated on the server. */
interface StationStatusTexts extends StatusTexts {
  activeSensors: string;
  /** "{online}/{total} online". */
  activeValue: string;
}

/** Props of the cards. */
interface StationStatusProps {
  stationId: number;
  /** The effective status when the page was rendered. */
  status: string;
  /** Worded last seen of the station. */
  lastSeen: string;
  online: number;
  total: number;
  texts: StationStatusTexts;
}

/** Puts a status label (dot and word) into every `[data-sensor-status=id]` of the page. */
function paintSensor(id: number, status: Status, texts: StationStatusTexts) {
  for (const el of document.querySelectorAll<HTMLElement>(`[data-sensor-status="${id}"]`)) {
    const label = el.querySelector<HTMLElement>(".status-label");
    const dot = el.querySelector<HTMLElement>(".status-dot");
    if (!label || !dot || label.dataset.status === status) continue;
    label.dataset.status = status;
    dot.className = `status-dot dot-${COLOURS[status]}`;
    label.lastChild!.textContent = texts.statuses[status];
  }
}

/** The two cards. */
export default function StationStatus(
  { stationId, status: status0, lastSeen, online: online0, total: total0, texts }:
    StationStatusProps,
) {
  const [status, setStatus] = useState<Status>(asStatus(status0));
  const [counts, setCounts] = useState({ online: online0, total: total0 });
  const [seen, setSeen] = useState(lastSeen);

  // A failed refresh keeps the last values; the next one tries again.
  usePoll(
    async (signal) => {
      const [own, list] = await Promise.all([
        fetch(`/api/devices/${stationId}`, { credentials: "same-origin", signal }),
        fetch(`/api/devices/${stationId}/sensors`, { credentials: "same-origin", signal }),
      ]);
      if (!own.ok || !list.ok) throw new Error(`status ${own.status}/${list.status}`);
      const station = await own.json();
      const body = await list.json();
      const sensors: { id: number; status: unknown }[] = Array.isArray(body)
        ? body
        : body.sensors ?? [];
      setStatus(asStatus(station.status));
      setSeen(
        lastSeenText(typeof station.last_seen === "number" ? station.last_seen : null, texts),
      );
      setCounts({
        online: sensors.filter((s) => s.status === "online").length,
        total: sensors.length,
      });
      for (const s of sensors) paintSensor(s.id, asStatus(s.status), texts);
    },
    { intervalMs: STATION_POLL_MS },
    stationId,
  );

  return (
    <>
      <StatusCard testId="station-status" status={status} seen={seen} texts={texts} />
      <div className="stat" data-testid="active-sensors">
        <div className="stat-label">{texts.activeSensors}</div>
        <div className="stat-value">
          {texts.activeValue.replace("{online}", String(counts.online)).replace(
            "{total}",
            String(counts.total),
          )}
        </div>
      </div>
    </>
  );
}
