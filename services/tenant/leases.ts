/**
 * A tenant's lease dates (spec 001, tenant profile; issue 24): every tenancy they had, of the
 * units they hold now and of those they left, with the unit's and station's names. Dates are
 * local (the business time zone), the last day of an ended tenancy included.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { clockOf } from "../platform/clock.ts";
import { getDevices } from "../../db/devices.ts";
import { tenanciesOf } from "../devices/tenancies.ts";
import { listDeviceViews } from "../devices/mod.ts";

/** One lease as the profile shows it. */
export interface Lease {
  station: string;
  unit: string;
  /** `YYYY-MM-DD`, or null for a tenancy from before tenancies were kept. */
  from: string | null;
  /** The last day, or null while it lasts. */
  to: string | null;
}

/** The tenant's leases, the current ones first, then the ended ones, newest first. */
export async function tenantLeases(deps: Deps, tenant: User): Promise<Lease[]> {
  const held = await listDeviceViews(deps, tenant, { type: "sensor" });
  const heldStored = await getDevices(deps.kv, held.map((s) => s.id));
  const tenancies = await tenanciesOf(deps, tenant.id, heldStored);
  const stations = new Map(
    (await getDevices(deps.kv, [...new Set(tenancies.map((t) => t.station_id))]))
      .map((s) => [s.id, s]),
  );
  const clock = clockOf(deps);
  return tenancies
    .sort((a, b) => (a.to === null ? 0 : 1) - (b.to === null ? 0 : 1) || b.from - a.from)
    .map((t) => {
      const station = stations.get(t.station_id);
      const unit = station?.config.station?.units.find((u) => u.id === t.unit_id);
      return {
        station: station?.name ?? `#${t.station_id}`,
        unit: unit?.name || t.unit_id,
        from: t.from > 0 ? clock.localDate(t.from) : null,
        to: t.to === null ? null : clock.localDate(t.to - 1),
      };
    });
}
