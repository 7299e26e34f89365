/**
 * Who an event is for, worked out when it is sent (so that a person who joined or left since
 * the change is counted as they are then): listed accounts, every active admin, or the current
 * tenants of a zone's stations (each unit's meter names its tenant).
 */
import type { OutboxEvent } from "../../core/messages.ts";
import { listUsers } from "../../db/users.ts";
import { listDevices } from "../../db/devices.ts";

/** The account ids `to` names. */
export async function recipientsOf(kv: Deno.Kv, to: OutboxEvent["to"]): Promise<number[]> {
  if (to === "admins") {
    return (await listUsers(kv, "admin")).filter((u) => u.is_active).map((u) => u.id);
  }
  if (Array.isArray(to)) return to;
  const devices = await listDevices(kv);
  const stations = new Set(
    devices.filter((d) => d.type === "station" && d.zone_id === to.zone).map((d) => d.id),
  );
  const tenants = new Set<number>();
  for (const d of devices) {
    if (d.type !== "sensor" || d.parent_id === null || !stations.has(d.parent_id)) continue;
    const tenant = d.tenant_id ?? d.config.sensor?.tenant_id ?? null;
    if (tenant !== null) tenants.add(tenant);
  }
  return [...tenants].sort((a, b) => a - b);
}
