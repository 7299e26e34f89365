/**
 * Browser side of DashboardLive (plain script): the overview 100 ms after load and every
 * 30 s, the device counts every 60 s (both paused while the tab is hidden). A failed
 * overview shows the error with Retry until the next success; a failed count keeps the
 * last counts.
 */
import {
  capacityText,
  type DashboardLiveProps,
  energyCells,
  type LiveOverview,
  type LiveStats,
} from "./dashboard_cells.ts";
import { browserEnv, startPoll } from "./poll.ts";
import { retryAlert } from "./retry_alert.ts";

/** Overview polling interval. */
const OVERVIEW_POLL_MS = 30_000;
/** Device counts polling interval. */
const DEVICES_POLL_MS = 60_000;

/** Keeps the server-rendered cards in `root` up to date. */
export function mount(root: HTMLElement, { texts: x }: DashboardLiveProps) {
  const text = (sel: string, value: string) => {
    const el = root.querySelector(sel);
    if (el) el.textContent = value;
  };
  const capacity = root.querySelector<HTMLElement>(".energy-capacity");
  const grid = root.querySelector(".energy-grid");
  let alert: HTMLElement | null = null;

  const showOverview = (o: LiveOverview) => {
    for (const c of energyCells(o, x)) text(`[data-testid=energy-${c.key}] .energy-value`, c.value);
    if (capacity) {
      capacity.textContent = capacityText(o, x);
      capacity.hidden = false;
    }
  };
  const showFailure = (error: unknown) => {
    if (!error) {
      alert?.remove();
      alert = null;
      return;
    }
    if (alert) return;
    alert = retryAlert(
      "alert alert-error energy-error",
      x.errorLoading,
      x.retry,
      () => overview.refresh(),
    );
    grid?.before(alert);
  };

  const overview = startPoll(
    async (signal) => {
      const res = await fetch("/api/measurements/overview", { credentials: "same-origin", signal });
      if (!res.ok) throw new Error(String(res.status));
      showOverview(await res.json());
    },
    { intervalMs: OVERVIEW_POLL_MS, firstDelayMs: 100 },
    browserEnv,
    showFailure,
  );

  startPoll(
    async (signal) => {
      const res = await fetch("/api/devices/stats", { credentials: "same-origin", signal });
      if (!res.ok) return;
      const s: LiveStats = await res.json();
      text("[data-testid=stat-stations] .stat-value", String(s.stationCount));
      text("[data-testid=stat-sensors] .stat-value", String(s.sensorCount));
      text("[data-testid=stat-online] .stat-value", String(s.onlineCount));
      text("[data-testid=stat-units] .stat-value", String(s.unitCount));
    },
    { intervalMs: DEVICES_POLL_MS },
    browserEnv,
    () => {},
  );
}
