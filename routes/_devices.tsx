/**
 * What the admin device pages share: texts of locations, last-seen times and assignments,
 * the pages' URLs, notices and failures carried by redirects, the not-found and load-error
 * pages, and the loader of the station a path names (`loadStation`).
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Deps, UserEnv } from "./_deps.ts";
import { idParam } from "./_http.ts";
import { renderPage } from "./_page.tsx";
import type { FieldErrors } from "../core/schemas.ts";
import type { DeviceView } from "../core/devices.ts";
import {
  DEVICE_MESSAGE_PARAMS,
  deviceField,
  LOCATION_FIELDS,
  parseLocation,
} from "../core/device_rules.ts";
import type { Rules } from "./_validate.ts";

/**
 * How a device body or form is refused by the one hook: field errors by the form's field
 * names (`deviceField`), the first one the message, with the limits they name.
 */
export const DEVICE_RULES: Rules = { fieldOf: deviceField, params: DEVICE_MESSAGE_PARAMS };
import { timeAgo } from "../core/time_ago.ts";
import { getDeviceView, getSensorView } from "../services/devices/mod.ts";
import type { Translate } from "../services/platform/i18n.ts";
import { StationLoadError, StationNotFound } from "../components/devices/StationData.tsx";
import { SensorNotFound } from "../components/devices/SensorDetail.tsx";
import type { StationRow } from "../components/devices/StationList.tsx";

/** The environment of handlers behind {@link loadStation}: the station is `c.var.station`. */
export type StationEnv = UserEnv & { Variables: { station: DeviceView } };

/** Translates a device message (some take `{{max}}` or `{{pin}}`). */
export const tr = <E extends AppEnv>(c: Context<E>, key: string) =>
  c.var.t(key, DEVICE_MESSAGE_PARAMS);
/** Translates a field-errors map of device messages. */
export const translate = <E extends AppEnv>(c: Context<E>, errors: FieldErrors): FieldErrors =>
  Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, tr(c, v)]));

/** Where a station's pages are. */
export const stationUrl = (id: number) => `/admin/devices/station/${id}`;
/** The station data page, with notices or failures in its query. */
export const dataUrl = (id: number, params: Record<string, string> = {}) => {
  const qs = new URLSearchParams(params).toString();
  return `${stationUrl(id)}/data${qs ? `?${qs}` : ""}`;
};

/** A location's city for the list, or the spec's fallback. */
export function cityText(t: Translate, location: string): string {
  const loc = parseLocation(location);
  if (LOCATION_FIELDS.every((k) => loc[k] === "")) return t("devices.location.no_location");
  return loc.city || t("devices.location.no_city");
}

/** The rows of the station list for `views`, those matching the search `q` (any case). */
export function stationRows(t: Translate, views: DeviceView[], q: string): StationRow[] {
  const needle = q.toLowerCase();
  return views.map((s) => ({
    id: s.id,
    name: s.name,
    city: cityText(t, s.location),
    serial_number: s.serial_number,
    customer: s.customer?.full_name ?? null,
    units: s.config.station?.units.length ?? 0,
    payment_status: s.payment_status,
    status: s.status,
    station_id: s.station_id,
  })).filter((s) =>
    !needle ||
    [s.name, s.city, s.serial_number, s.customer ?? "", s.station_id]
      .some((x) => x.toLowerCase().includes(needle))
  );
}

/** A location worded on one line, or 'No location'. */
export function locationText(t: Translate, location: string): string {
  const loc = parseLocation(location);
  const street = [loc.street, loc.street_number].filter(Boolean).join(" ");
  const parts = [street, loc.colony, loc.city || t("devices.location.no_city"), loc.state]
    .concat(loc.postal_code ? [loc.postal_code] : [], loc.country ? [loc.country] : [])
    .filter(Boolean);
  if (LOCATION_FIELDS.every((k) => loc[k] === "")) return t("devices.location.no_location");
  return parts.join(", ");
}

/** "5 min ago", "Never seen"... */
export function lastSeenText(t: Translate, lastSeen: number | null, now: number): string {
  if (lastSeen === null) return t("devices.station_data.cards.never_seen");
  const a = timeAgo(lastSeen, now);
  const time = a.unit === "just_now"
    ? t("devices.time_ago.just_now")
    : t(`devices.time_ago.${a.unit}`, { n: a.n });
  return t("devices.station_data.cards.last_seen", { time });
}

/** The unit (with its tenant) a sensor measures, worded as the spec's fallbacks say. */
export function assignmentText(t: Translate, station: DeviceView, sensor: DeviceView): string {
  const unitId = sensor.config.sensor?.unit_id ?? null;
  if (!unitId) return t("devices.location.not_assigned");
  const unit = station.config.station?.units.find((u) => u.id === unitId);
  const unitName = unit?.name ?? t("devices.location.unknown_unit");
  const tenant = sensor.tenant_id === null
    ? t("devices.location.no_tenant")
    : sensor.tenant?.full_name ?? t("devices.location.unknown_tenant");
  return t("devices.station_data.sensors.unit_with_tenant", { unit: unitName, tenant });
}

// ---- the station form's values ---------------------------------------------------------------

/** A failure carried by a redirect: shown only when it is a known device message. */
export function failureText(t: Translate, what: string | undefined, reason: string | undefined) {
  if (!what) return undefined;
  const known = reason && /^(devices|mqtt_test)\./.test(reason) && t(reason) !== reason
    ? t(reason)
    : t("devices.station_data.errors.unexpected");
  if (what === "station_has_sensors") {
    return t("devices.station_data.delete_station_dialog.has_sensors");
  }
  if (what === "delete_station") {
    return t("devices.station_data.errors.delete_station_failed", { message: known });
  }
  if (what === "delete_sensor") {
    return t("devices.station_data.errors.delete_sensor_failed", { message: known });
  }
  return undefined;
}

/** Notices after a change on the station data page and the list. */
const NOTICES: Record<string, string> = {
  created: "devices.station_form.success_create",
  updated: "devices.station_form.success_update",
  sensor_created: "devices.sensor_form.success_create",
  sensor_updated: "devices.sensor_form.success_update",
  sensor_deleted: "devices.station_data.sensor_deleted",
  station_deleted: "devices.devices_page.station_deleted",
};
/** The notice of `done`, if it is a known one. */
export const noticeText = (t: Translate, done: string | undefined) =>
  done && NOTICES[done] ? t(NOTICES[done]) : undefined;

/** 'Station Not Found' (404). */
export const stationNotFound = <E extends AppEnv>(c: Context<E>, deps: Deps) =>
  renderPage(
    c,
    deps,
    c.var.t("devices.sensor_form.station_not_found_title"),
    StationNotFound,
    {},
    404,
  );

/** 'Error Loading Station' with Go Back and Try Again (500). */
export const stationLoadError = <E extends AppEnv>(c: Context<E>, deps: Deps, e: unknown) => {
  deps.log.log("error", "station page failed", { path: c.req.path, error: String(e) });
  const t = c.var.t;
  return renderPage(c, deps, t("devices.station_data.errors.loading_title"), StationLoadError, {
    message: t("devices.station_data.errors.unexpected"),
    retry: c.req.path,
  }, 500);
};

/** 'Sensor Not Found' (404) of a station's sensor pages. */
export const sensorNotFound = <E extends AppEnv>(c: Context<E>, deps: Deps, stationId: number) =>
  renderPage(
    c,
    deps,
    c.var.t("devices.sensor_data.not_found_title"),
    SensorNotFound,
    { stationId },
    404,
  );

/** Options of {@link loadStation}. */
interface LoadStationOptions {
  /** Answers the 'Error Loading Station' page when reading the station fails (else it throws). */
  pageOnError?: boolean;
}

/**
 * Loads the station the path's `:id` names, as the admin sees it, into `c.var.station`;
 * answers 'Station Not Found' (404) when it is no station.
 */
export function loadStation(
  deps: Deps,
  options: LoadStationOptions = {},
): MiddlewareHandler<StationEnv> {
  return async (c, next) => {
    const id = idParam(c.req.param("id"));
    let station: DeviceView | null = null;
    try {
      const view = id === null ? null : await getDeviceView(deps, c.var.user, id);
      station = view?.type === "station" ? view : null;
    } catch (e) {
      if (!options.pageOnError) throw e;
      return stationLoadError(c, deps, e);
    }
    if (!station) return stationNotFound(c, deps);
    c.set("station", station);
    await next();
  };
}

/** The environment of handlers behind {@link loadSensor}: the sensor is `c.var.sensor`. */
export type SensorEnv = StationEnv & { Variables: { sensor: DeviceView } };

/**
 * Loads the sensor the path's `:sensorId` names, of the station already loaded by
 * {@link loadStation}, into `c.var.sensor`; answers `missing` when it is no sensor of it.
 */
export function loadSensor(
  deps: Deps,
  missing: (c: Context<StationEnv>, stationId: number) => Response | Promise<Response>,
): MiddlewareHandler<SensorEnv> {
  return async (c, next) => {
    const station = c.var.station;
    const sensorId = idParam(c.req.param("sensorId"));
    const sensor = sensorId === null
      ? null
      : await getSensorView(deps, c.var.user, station.id, sensorId);
    if (!sensor) return missing(c as unknown as Context<StationEnv>, station.id);
    c.set("sensor", sensor);
    await next();
  };
}
