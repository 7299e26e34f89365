/**
 * The station data page (spec 000 section 2): `/admin/devices/station/{id}/data` with the
 * station's cards and sensors, and the station delete with its confirmation.
 */
import { acting } from "./_audit.ts";
import { Hono } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { formString as str, readForm } from "./_http.ts";
import { requireRole } from "./_session.ts";
import { flashQuery, queryInput } from "./_validate.ts";
import { confirmPage, renderPage } from "./_page.tsx";
import { attempt, Refusal } from "./_refusal.tsx";
import type { DeviceView } from "../core/devices.ts";
import { deleteStation, listSensorViews } from "../services/devices/mod.ts";
import { type SensorRow, StationData } from "../components/devices/StationData.tsx";
import { withOpenAlerts } from "../components/alerts/OpenAlerts.tsx";
import { openAlertsView } from "../services/alerts/mod.ts";

const StationWithAlerts = withOpenAlerts(StationData);
import {
  assignmentText,
  dataUrl,
  failureText,
  lastSeenText,
  loadStation,
  locationText,
  noticeText,
  stationLoadError,
  stationUrl,
} from "./_devices.tsx";

/** The station data page and the station delete, mounted at `/admin/devices/station`. */
export function adminStationDataRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("admin"));

  const station = loadStation(deps, { pageOnError: true });
  app.get("/:id/data", station, queryInput(flashQuery), async (c) => {
    const t = c.var.t;
    const s = c.var.station;
    const flash = c.req.valid("query");
    let sensors: DeviceView[];
    try {
      sensors = (await listSensorViews(deps, c.var.user, s.id)) ?? [];
    } catch (e) {
      return stationLoadError(c, deps, e);
    }
    const units = s.config.station?.units ?? [];
    const rows: SensorRow[] = sensors.map((x) => ({
      id: x.id,
      name: x.name,
      status: x.status,
      serial_number: x.serial_number,
      assignment: assignmentText(t, s, x),
    }));
    const bound = new Set(sensors.map((x) => x.config.sensor?.unit_id).filter(Boolean));
    const back = `/admin/devices/station/${s.id}/data`;
    const openAlerts = await openAlertsView(
      deps,
      c.var.user,
      c.var.lang,
      { station_id: s.id },
      back,
    );
    return renderPage(c, deps, s.name, StationWithAlerts, {
      openAlerts,
      station: {
        id: s.id,
        name: s.name,
        serial_number: s.serial_number,
        station_id: s.station_id,
        location: locationText(t, s.location),
        zone: s.zone?.name ?? null,
        status: s.status,
        last_seen: s.last_seen,
        customer: s.customer?.full_name ?? null,
        units: units.length,
        unitsWithSensor: units.filter((u) => bound.has(u.id)).length,
        sensors: rows,
      },
      lastSeen: lastSeenText(t, s.last_seen, deps.now()),
      notice: noticeText(t, flash.done),
      failure: failureText(t, flash.error, flash.reason),
    });
  });

  app.post("/:id/delete", loadStation(deps), async (c) => {
    const t = c.var.t;
    const s = c.var.station;
    const form = await readForm(c);
    const sensors = (await listSensorViews(deps, c.var.user, s.id)) ?? [];
    if (sensors.length > 0) {
      return c.redirect(dataUrl(s.id, { error: "station_has_sensors" }), 303);
    }
    if (str(form, "confirm") !== "yes") {
      return confirmPage(c, deps, {
        title: t("devices.station_data.delete_station_dialog.title"),
        message: t("devices.station_data.delete_station_dialog.message", { name: s.name }),
        action: `${stationUrl(s.id)}/delete`,
        fields: {},
        cancelHref: dataUrl(s.id),
      });
    }
    const res = await attempt(deleteStation(acting(c, deps), s.id));
    if (res instanceof Refusal) {
      if (res.kind === "conflict") {
        return c.redirect(dataUrl(s.id, { error: "station_has_sensors" }), 303);
      }
      return c.redirect(dataUrl(s.id, { error: "delete_station", reason: res.key }), 303);
    }
    return c.redirect("/admin/devices?done=station_deleted", 303);
  });

  return app;
}
