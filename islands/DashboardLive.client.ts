/**
 * Browser side of DashboardLive (plain script): 100 ms after load, then the overview every
 * 30 s and the device counts every 60 s (both paused while the tab is hidden). A failed call
 * shows "Dashboard Error" with what failed, Retry and Refresh until its next success, and
 * resets its figures to zero (spec 000 section 8).
 */
import { revalidating } from "./revalidate.ts";
import {
  capacityText,
  type DashboardLiveProps,
  energyCells,
  type LiveOverview,
  type LiveStats,
  ZERO_OVERVIEW,
} from "./dashboard_cells.ts";
import { browserEnv, startPoll } from "./poll.ts";
import { retryAlert } from "./retry_alert.ts";

/** A fetch answered with an error status: its text says which call and the status. */
class FetchFailed extends Error {}

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
  const showStats = (s: LiveStats) => {
    text("[data-testid=stat-stations] .stat-value", String(s.stationCount));
    text("[data-testid=stat-sensors] .stat-value", String(s.sensorCount));
    text("[data-testid=stat-online] .stat-value", String(s.onlineCount));
    text("[data-testid=stat-units] .stat-value", String(s.unitCount));
  };
  const failures = new Map<string, string>();
  /**
   * The error box: "Dashboard Error", what failed ("Failed to fetch overview: 503", or "Error
   * loading dashboard" when the server was not reached), Retry and a Refresh link; gone once
   * every call succeeds again.
   */
  const showFailures = () => {
    alert?.remove();
    alert = null;
    if (failures.size === 0) return;
    alert = retryAlert(
      "alert alert-error energy-error",
      [...failures.values()].join(" · "),
      x.retry,
      () => {
        overview.refresh();
        devices.refresh();
      },
    );
    alert.dataset.testid = "dashboard-error";
    const heading = document.createElement("strong");
    heading.textContent = `${x.errorHeading}: `;
    alert.prepend(heading);
    const refresh = document.createElement("a");
    refresh.href = location.href;
    refresh.textContent = x.refresh;
    alert.append(" ", refresh);
    grid?.before(alert);
  };
  const failed = (call: string, error: unknown) => {
    if (!error) failures.delete(call);
    else failures.set(call, error instanceof FetchFailed ? error.message : x.errorLoading);
    showFailures();
  };
  const showFailure = (error: unknown) => {
    // A failed overview shows zeros, not the last figures (spec 000 section 8).
    if (error) showOverview(ZERO_OVERVIEW);
    failed("overview", error);
  };

  const overview = startPoll(
    async (signal) => {
      const res = await fetch("/api/measurements/overview", { credentials: "same-origin", signal });
      if (!res.ok) throw new FetchFailed(x.fetchOverview.replace("{status}", String(res.status)));
      showOverview(await res.json());
    },
    { intervalMs: OVERVIEW_POLL_MS, firstDelayMs: 100 },
    browserEnv,
    showFailure,
  );

  // The counts are asked with the ETag of the last ones: unchanged, a 304 and nothing redrawn.
  const statsOf = revalidating();
  const devices = startPoll(
    async (signal) => {
      const res = await statsOf("/api/devices/stats", { signal });
      if (res === null) return;
      if (!res.ok) throw new FetchFailed(x.fetchDevices.replace("{status}", String(res.status)));
      showStats(await res.json());
    },
    { intervalMs: DEVICES_POLL_MS, firstDelayMs: 100 },
    browserEnv,
    (error) => {
      if (error) showStats({ stationCount: 0, sensorCount: 0, onlineCount: 0, unitCount: 0 });
      failed("devices", error);
    },
  );
}
