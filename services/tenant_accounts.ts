/**
 * Tenants as the admin manages them (the newcomer's issue): a tenant created directly with the
 * unit they move into and the move-in date (the account by `createAccount`, the tenancy by
 * `moveTenantIn`, as registration with an access code does), and the units each listed tenant
 * holds.
 */
import type { z } from "zod";
import type { Deps } from "./deps.ts";
import { invalid, Refusal } from "./refusal.ts";
import type { User } from "../core/types.ts";
import type { tenantCreateSchema } from "../core/schemas.ts";
import { createAccount } from "./accounts.ts";
import { moveTenantIn } from "./devices/tenancies.ts";
import { getDevice } from "../db/devices.ts";
import { fleetDevices } from "./devices/fleet_devices.ts";
import { deleteUser } from "../db/users.ts";
import { tenanciesOfTenant } from "../db/tenancies.ts";

/** The unit no longer measured by the chosen sensor (removed or moved meanwhile). */
const UNIT_GONE = "users.form.errors.unit_gone";

/**
 * Creates the tenant and, with a unit, moves them in on the move-in date (today when empty; a
 * later date is a planned move-in). A refused move-in removes the account again: nothing is
 * left half made.
 */
export async function createTenant(
  deps: Deps,
  input: z.output<typeof tenantCreateSchema>,
): Promise<User> {
  const { unit, move_in_date, ...account } = input;
  const [sensorId, unitId] = unit ? unit.split(":") : [];
  const sensor = unit ? await getDevice(deps.kv, Number(sensorId)) : null;
  if (unit && (sensor?.type !== "sensor" || sensor.config.sensor?.unit_id !== unitId)) {
    throw invalid({ unit: UNIT_GONE });
  }
  const user = await createAccount(deps, account);
  if (!sensor) return user;
  try {
    await moveTenantIn(deps, user.id, [sensor], { effective_from: move_in_date ?? null }, {
      allowFuture: true,
    });
  } catch (e) {
    await deleteUser(deps.kv, user.id);
    if (e instanceof Refusal && e.kind === "invalid") {
      const field = e.fields.effective_from ? "move_in_date" : "unit";
      throw new Refusal("invalid", e.key, { [field]: e.key }, e.detail, e.params);
    }
    throw e;
  }
  return user;
}

/**
 * The units each of `tenantIds` holds now or from a planned move-in, as `Station · Unit`: their
 * open tenancies, and the units whose meter names them (a unit held since before tenancies were
 * kept has no record).
 */
export async function tenantUnits(
  deps: Deps,
  tenantIds: readonly number[],
): Promise<Map<number, string[]>> {
  const now = deps.now();
  const wanted = new Set(tenantIds);
  const held = new Map<number, Map<string, { station: number; unit: string }>>();
  const hold = (tenant: number, station: number, unit: string) => {
    const units = held.get(tenant) ?? new Map();
    units.set(`${station}:${unit}`, { station, unit });
    held.set(tenant, units);
  };
  const devices = await fleetDevices(deps.kv);
  for (const d of devices) {
    const s = d.config.sensor;
    if (d.type === "sensor" && d.parent_id !== null && s?.unit_id && s.tenant_id !== null) {
      if (wanted.has(s.tenant_id)) hold(s.tenant_id, d.parent_id, s.unit_id);
    }
  }
  for (const id of tenantIds) {
    for (const t of await tenanciesOfTenant(deps.kv, id)) {
      if (t.to === null || t.to > now) hold(id, t.station_id, t.unit_id);
    }
  }
  const stations = new Map(devices.filter((d) => d.type === "station").map((s) => [s.id, s]));
  const out = new Map<number, string[]>();
  for (const id of tenantIds) {
    out.set(
      id,
      [...(held.get(id)?.values() ?? [])].map((h) => {
        const s = stations.get(h.station);
        const name = s?.config.station?.units.find((u) => u.id === h.unit)?.name ?? h.unit;
        return s ? `${s.name} · ${name}` : name;
      }),
    );
  }
  return out;
}
