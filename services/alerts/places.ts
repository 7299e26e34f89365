/** Where each meter sits (issue 30): its station, zone and unit, from the devices in KV. */
import type { Deps } from "../deps.ts";
import type { MeterPlace } from "../../core/alert_rules.ts";
import type { StoredDevice } from "../../core/devices.ts";
import { listDevices } from "../../db/devices.ts";

/** The place of every device, by uppercased serial. */
export function placesOf(devices: readonly StoredDevice[]): Map<string, MeterPlace> {
  const byId = new Map(devices.map((d) => [d.id, d]));
  const out = new Map<string, MeterPlace>();
  for (const d of devices) {
    const station = d.type === "station" ? d : byId.get(d.parent_id ?? -1);
    out.set(d.serial_number.toUpperCase(), {
      serial: d.serial_number,
      device_id: d.id,
      station_id: station?.id ?? d.id,
      zone_id: d.zone_id ?? station?.zone_id ?? null,
      unit_id: d.config.sensor?.unit_id ?? null,
    });
  }
  return out;
}

/** Every meter's place, read now. */
export async function meterPlaces(deps: Deps): Promise<Map<string, MeterPlace>> {
  return placesOf(await listDevices(deps.kv));
}
