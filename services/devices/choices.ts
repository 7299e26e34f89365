/** What the Create Access Code checklists offer: stations and units with a sensor. */
import type { Deps } from "../deps.ts";
import { listDevices } from "../../db/devices.ts";

/** A station an access code can assign. */
export interface StationChoice {
  id: number;
  label: string;
}

/** A unit (with a sensor) an access code can assign; `value` is `sensorId:unitId`. */
export interface UnitChoice {
  value: string;
  label: string;
}

/**
 * What the Create Access Code checklists offer: every station (customers), and the unit of
 * every sensor that has one (tenants), as `sensorId:unitId`, in creation order.
 */
export async function accessCodeChoices(
  deps: Deps,
): Promise<{ stations: StationChoice[]; units: UnitChoice[] }> {
  const devices = await listDevices(deps.kv);
  const byId = new Map(devices.map((d) => [d.id, d]));
  const stations = devices.filter((d) => d.type === "station")
    .map((d) => ({ id: d.id, label: `${d.name} (${d.serial_number})` }));
  const units: UnitChoice[] = [];
  for (const s of devices) {
    const unitId = s.config.sensor?.unit_id;
    if (s.type !== "sensor" || !unitId || s.parent_id === null) continue;
    const station = byId.get(s.parent_id);
    const unit = station?.config.station?.units.find((u) => u.id === unitId);
    units.push({
      value: `${s.id}:${unitId}`,
      label: `${station?.name ?? "?"} · ${unit?.name ?? unitId} · ${s.name}`,
    });
  }
  return { stations, units };
}
