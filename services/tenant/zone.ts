/** The pricing zone of a tenant's unit (its station's zone), as the tariff code reads it. */
import type { Deps } from "../deps.ts";
import type { Zone } from "../../core/zone.ts";
import { type ZoneView, zoneView } from "../zones.ts";
import type { TenantUnit } from "./units.ts";

/** Zones by id, read once per request. */
export class ZoneCache {
  #zones = new Map<number, Promise<ZoneView | null>>();
  constructor(private deps: Deps) {}

  /** The zone of a unit's station with its station count, or null when it has none. */
  view(unit: TenantUnit | undefined): Promise<ZoneView | null> {
    const id = unit?.station?.zone_id;
    if (id === null || id === undefined) return Promise.resolve(null);
    if (!this.#zones.has(id)) this.#zones.set(id, zoneView(this.deps, id));
    return this.#zones.get(id)!;
  }

  /** The zone of a unit's station for the tariff code, or null (the estimate then falls back). */
  async zone(unit: TenantUnit | undefined): Promise<Zone | null> {
    return await this.view(unit);
  }
}
