/**
 * A unit's tenancies on the admin's sensor page (issue 24): the card's data, and the forms
 * that record a move-out (with its reading and the final bill) and a move-in, mounted at
 * `/admin/devices/station/:id/sensor/:sensorId/tenancy/*`. A refusal comes back to the page
 * with its message next to the field it names.
 */
import { acting } from "./_audit.ts";
import { Hono } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { formString as str, readForm } from "./_http.ts";
import { requireRole } from "./_session.ts";
import { attempt, Refusal } from "./_refusal.tsx";
import { formChecked } from "./_validate.ts";
import { assignTenantSchema, deviceField, removeTenantSchema } from "../core/device_rules.ts";
import type { DeviceView } from "../core/devices.ts";
import { findUsers } from "../services/accounts.ts";
import { assignTenant, listTenancies, removeTenant } from "../services/devices/mod.ts";
import type { TenancyCardProps } from "../components/devices/sensor/TenancyCard.tsx";
import type { Translate } from "../services/platform/i18n.ts";
import { loadSensor, loadStation, stationUrl } from "./_devices.tsx";
import { clockOf } from "../services/platform/clock.ts";

const pageOf = (stationId: number, sensorId: number) =>
  `${stationUrl(stationId)}/sensor/${sensorId}/data`;

/** The card's props for the sensor page: the history, the forms and the last outcome. */
export async function tenancyCard(
  deps: Deps,
  t: Translate,
  query: (name: string) => string | undefined,
  stationId: number,
  sensor: DeviceView,
): Promise<Omit<TenancyCardProps, "t">> {
  const clock = clockOf(deps);
  const day = (iso: string | null, last = false) =>
    iso === null ? null : clock.localDate(Date.parse(iso) - (last ? 1 : 0));
  const rows = sensor.config.sensor?.unit_id ? await listTenancies(deps, sensor.id) : [];
  const open = rows.find((r) => r.to === null);
  const tenants = (await findUsers(deps, "user")).filter((u) => u.id !== open?.tenant_id);
  const q = (k: string) => query(k) ?? "";
  const key = q("te");
  let params: Record<string, string | number> = {};
  try {
    params = JSON.parse(q("tp") || "{}");
  } catch {
    params = {};
  }
  const known = /^devices\.(tenancy\.errors|validation)\.[a-z_]+$/.test(key);
  return {
    rows: rows.map((r) => ({
      tenant: r.tenant_name,
      from: day(r.from),
      to: day(r.to, true),
      reading_from_kwh: r.reading_from_kwh,
      reading_to_kwh: r.reading_to_kwh,
    })),
    current: open ? open.tenant_name : null,
    tenants: tenants.map((u) => ({ id: u.id, name: `${u.full_name} · ${u.email}` })),
    base: `${stationUrl(stationId)}/sensor/${sensor.id}/tenancy`,
    today: clock.todayText(),
    error: known
      ? { message: t(key, params), field: q("tf"), form: q("tform") === "in" ? "in" : "out" }
      : null,
    done: ["moved_out", "moved_in"].includes(q("td")) ? t(`devices.tenancy.${q("td")}`) : null,
  };
}

/**
 * A reading typed on the form: "1234,5" or "1234.5" (a decimal comma is a decimal point), empty
 * for none, NaN for anything else (refused with the reading's message, never reinterpreted).
 */
function readingOf(text: string): number | null {
  const s = text.trim();
  if (s === "") return null;
  return /^\d{1,9}([.,]\d{1,3})?$/.test(s) ? Number(s.replace(",", ".")) : NaN;
}

/** How a move's form is refused: by the field the page marks, the first one named. */
const FORM_RULES = { fieldOf: deviceField };

/** The move-out and move-in forms of the sensor page. */
export function adminSensorTenancyRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("admin"));
  const back = loadSensor(deps, (c, stationId) => c.redirect(`${stationUrl(stationId)}/data`, 303));

  /** Back to the page: what was done, or the refusal and the field it names. */
  const outcome = (page: string, res: unknown, form: "out" | "in", done: string) => {
    if (!(res instanceof Refusal)) return `${page}?td=${done}#tenancies`;
    const q = new URLSearchParams({
      te: res.key,
      tf: Object.keys(res.fields)[0] ?? "",
      tform: form,
      tp: JSON.stringify(res.params),
    });
    return `${page}?${q}#tenancies`;
  };

  app.post("/:sensorId/tenancy/move-out", loadStation(deps), back, async (c) => {
    const s = c.var.station;
    const x = c.var.sensor;
    const form = await readForm(c);
    const move = formChecked(removeTenantSchema, {
      effective_from: str(form, "effective_from"),
      reading_kwh: readingOf(str(form, "reading_kwh")),
      final_bill: str(form, "final_bill") === "yes",
    }, FORM_RULES);
    const res = move instanceof Refusal
      ? move
      : await attempt(removeTenant(acting(c, deps), x.id, move, String(c.var.user.id)));
    return c.redirect(outcome(pageOf(s.id, x.id), res, "out", "moved_out"), 303);
  });

  app.post("/:sensorId/tenancy/move-in", loadStation(deps), back, async (c) => {
    const s = c.var.station;
    const x = c.var.sensor;
    const form = await readForm(c);
    const move = formChecked(assignTenantSchema, {
      tenant_id: str(form, "tenant_id"),
      sensor_ids: [x.id],
      effective_from: str(form, "effective_from"),
      reading_kwh: readingOf(str(form, "reading_kwh")),
    }, FORM_RULES);
    const res = move instanceof Refusal
      ? move
      : await attempt(assignTenant(acting(c, deps), move.tenant_id, move.sensor_ids, move));
    return c.redirect(outcome(pageOf(s.id, x.id), res, "in", "moved_in"), 303);
  });

  return app;
}
