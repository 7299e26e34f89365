/**
 * What the Create Access Code checklists offer: stations, and units with a sensor. A fleet can
 * hold thousands, so the form shows the chosen ones and a page of the others that match its
 * search ({@link CHOICES_SHOWN}), read from the device records kept per store.
 */
import type { Deps } from "../deps.ts";
import type { StoredDevice } from "../../core/devices.ts";
import { matches } from "../../core/paging.ts";
import { fleetDevices } from "./fleet_devices.ts";

/** A station an access code can assign. */
interface StationChoice {
  id: number;
  label: string;
}

/** A unit (with a sensor) an access code can assign; `value` is `sensorId:unitId`. */
interface UnitChoice {
  value: string;
  label: string;
}

/** How many choices of each kind the form shows besides the chosen ones. */
const CHOICES_SHOWN = 50;

/** The choices shown of one kind, and how many match the search in all. */
interface ChoicePage<T> {
  items: T[];
  /** Choices that match the search (the chosen ones included). */
  matching: number;
}

/** What the form asks for: its search and the choices already ticked. */
interface ChoiceQuery {
  q?: string;
  stations?: readonly number[];
  units?: readonly string[];
}

/** The chosen items, then the first `CHOICES_SHOWN` others that match, in creation order. */
function pageOf<T>(all: readonly T[], chosen: (x: T) => boolean, match: (x: T) => boolean) {
  const items = all.filter(chosen);
  let matching = 0;
  let others = 0;
  for (const x of all) {
    if (!match(x)) continue;
    matching++;
    if (!chosen(x) && others < CHOICES_SHOWN) {
      items.push(x);
      others++;
    }
  }
  return { items, matching };
}

/**
 * The Create Access Code choices: stations (customers) and the unit of every sensor that has
 * one (tenants, as `sensorId:unitId`), each searched by its label.
 */
export async function accessCodeChoices(
  deps: Deps,
  query: ChoiceQuery = {},
): Promise<{ stations: ChoicePage<StationChoice>; units: ChoicePage<UnitChoice> }> {
  const devices = await fleetDevices(deps.kv);
  const q = query.q ?? "";
  const byId = new Map<number, StoredDevice>();
  for (const d of devices) if (d.type === "station") byId.set(d.id, d);
  const stations = [...byId.values()].map((d) => ({
    id: d.id,
    label: `${d.name} (${d.serial_number})`,
  }));
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
  const chosenStations = new Set(query.stations ?? []);
  const chosenUnits = new Set(query.units ?? []);
  return {
    stations: pageOf(stations, (s) => chosenStations.has(s.id), (s) => matches(q, [s.label])),
    units: pageOf(units, (u) => chosenUnits.has(u.value), (u) => matches(q, [u.label])),
  };
}
