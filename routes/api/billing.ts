/**
 * Bills API (spec 001 section 7): the billing run, bill lists and deletes.
 *
 * - `POST /unified-billing/process` and `/api/unified-billing/process` (admin): body
 *   `{period, zone_id}` → counts of the run (`services/billing.ts`).
 * - `GET /api/bills`, `/api/bimester-bills` (monthly / bimonthly unit bills; query station_id,
 *   billing_month or billing_period, optional unit_id): admin sees all, a customer the bills of
 *   its stations, a tenant the bills of its units.
 * - `GET /api/customer-bills`, `/api/bimester-customer-bills`: admin all, a customer its
 *   stations'; tenants 403.
 * - `DELETE /bills/{id}`, `/bimester-bills/{id}`, `/customer-bills/{id}`,
 *   `/bimester-customer-bills/{id}` and their `/api` variants (admin): finalized bills stay (409).
 * - `PUT /api/bills/{id}`, `/api/bimester-bills/{id}` (admin): recalculation
 *   (`services/recalculation.ts`); answers the updated bill.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv, Deps } from "../_deps.ts";
import { badJson, idParam, readJson } from "../_http.ts";
import { requireApi } from "../_session.ts";
import { parsePeriod } from "../../core/periods.ts";
import { BillingInputError, runBilling } from "../../services/billing.ts";
import {
  deleteCustomerBill,
  type DeleteResult,
  deleteUnitBill,
  listCustomerBills,
  listUnitBills,
  type StoredCustomerBill,
  type StoredUnitBill,
} from "../../db/bills.ts";
import { stationIdsOfCustomer } from "../../db/devices.ts";
import { RecalcError, recalculateBill } from "../../services/recalculation.ts";

/** Filters of a bill list, validated. */
interface BillQuery {
  station_id: number | null;
  period: string | null;
  unit_id: string | null;
}

/** Reads the query; null when a value is malformed. */
function billQuery(c: Context<AppEnv>): BillQuery | null {
  const q = c.req.query();
  let station_id: number | null = null;
  if (q.station_id !== undefined && q.station_id !== "") {
    station_id = idParam(q.station_id);
    if (station_id === null) return null;
  }
  let period: string | null = null;
  for (const name of ["billing_month", "billing_period"] as const) {
    const v = q[name];
    if (v === undefined || v === "") continue;
    try {
      const p = parsePeriod(v);
      if ((name === "billing_month") !== (p.kind === "monthly")) return null;
      period = p.text;
    } catch {
      return null;
    }
  }
  const unit_id = q.unit_id === undefined || q.unit_id === "" ? null : q.unit_id;
  if (unit_id !== null && !/^[\w.-]{1,64}$/.test(unit_id)) return null;
  return { station_id, period, unit_id };
}

const periodOf = (b: { billing_month: string | null; billing_period: string | null }) =>
  b.billing_month ?? b.billing_period;

const badQuery = (c: Context<AppEnv>) =>
  c.json({ message: c.var.t("billing.errors.invalid_query"), errors: {} }, 400);

/** Routes of the billing run and the bill lists. */
export function billingApiRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  const process = async (c: Context<AppEnv>) => {
    const body = await readJson(c);
    if (body === undefined || typeof body !== "object" || body === null) return badJson(c);
    const { period, zone_id } = body as Record<string, unknown>;
    try {
      const user = c.var.user!;
      const res = await runBilling(deps, zone_id, period, { author: user.email });
      return c.json(res);
    } catch (e) {
      if (e instanceof BillingInputError) {
        return c.json({ message: c.var.t(e.key), detail: e.message }, e.status);
      }
      throw e;
    }
  };
  for (const path of ["/unified-billing/process", "/api/unified-billing/process"]) {
    app.post(path, requireApi("admin"), process);
  }

  /** The station ids a customer may see, or null for every station (admin). */
  const visibleStations = async (c: Context<AppEnv>): Promise<Set<number> | null> => {
    const user = c.var.user!;
    if (user.role === "admin") return null;
    if (user.role === "customer") return new Set(await stationIdsOfCustomer(deps.kv, user.id));
    return new Set();
  };

  const unitList = (kind: "monthly" | "bimonthly") => async (c: Context<AppEnv>) => {
    const q = billQuery(c);
    if (!q) return badQuery(c);
    const user = c.var.user!;
    const stations = await visibleStations(c);
    const bills = (await listUnitBills(deps.kv, q.station_id ?? undefined)).filter((b) =>
      (kind === "monthly" ? b.billing_month !== null : b.billing_period !== null) &&
      (q.period === null || periodOf(b) === q.period) &&
      (q.unit_id === null || b.unit_id === q.unit_id) &&
      (user.role === "admin" ||
        (user.role === "customer" && stations!.has(b.station_id)) ||
        (user.role === "user" && b.tenant_id === user.id))
    );
    return c.json(bills satisfies StoredUnitBill[]);
  };
  app.get("/api/bills", requireApi("admin", "customer", "user"), unitList("monthly"));
  app.get("/api/bimester-bills", requireApi("admin", "customer", "user"), unitList("bimonthly"));

  const customerList = (kind: "monthly" | "bimonthly") => async (c: Context<AppEnv>) => {
    const q = billQuery(c);
    if (!q) return badQuery(c);
    const stations = await visibleStations(c);
    const bills = (await listCustomerBills(deps.kv, q.station_id ?? undefined)).filter((b) =>
      (kind === "monthly" ? b.billing_month !== null : b.billing_period !== null) &&
      (q.period === null || periodOf(b) === q.period) &&
      (stations === null || stations.has(b.station_id))
    );
    return c.json(bills satisfies StoredCustomerBill[]);
  };
  app.get("/api/customer-bills", requireApi("admin", "customer"), customerList("monthly"));
  app.get(
    "/api/bimester-customer-bills",
    requireApi("admin", "customer"),
    customerList("bimonthly"),
  );

  const remove =
    (del: (kv: Deno.Kv, id: number) => Promise<DeleteResult>) => async (c: Context<AppEnv>) => {
      const id = idParam(c.req.param("id"));
      const res = id === null ? "not_found" : await del(deps.kv, id);
      if (res === "not_found") {
        return c.json({ message: c.var.t("billing.errors.bill_not_found") }, 404);
      }
      if (res === "finalized") {
        return c.json({ message: c.var.t("billing.errors.bill_finalized") }, 409);
      }
      return c.json({ message: c.var.t("billing.messages.bill_deleted"), id });
    };
  for (const prefix of ["", "/api"]) {
    app.delete(`${prefix}/bills/:id`, requireApi("admin"), remove(deleteUnitBill));
    app.delete(`${prefix}/bimester-bills/:id`, requireApi("admin"), remove(deleteUnitBill));
    app.delete(`${prefix}/customer-bills/:id`, requireApi("admin"), remove(deleteCustomerBill));
    app.delete(
      `${prefix}/bimester-customer-bills/:id`,
      requireApi("admin"),
      remove(deleteCustomerBill),
    );
  }

  const recalculate = (kind: "monthly" | "bimonthly") => async (c: Context<AppEnv>) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return c.json({ message: c.var.t("billing.errors.bill_not_found") }, 404);
    const body = await readJson(c);
    if (body === undefined) return badJson(c);
    try {
      const user = c.var.user!;
      return c.json(await recalculateBill(deps, id, kind, body, user));
    } catch (e) {
      if (e instanceof RecalcError) {
        const t = c.var.t;
        const errors = Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [k, t(v)]));
        return c.json({ message: t(e.key), errors }, e.status);
      }
      throw e;
    }
  };
  app.put("/api/bills/:id", requireApi("admin"), recalculate("monthly"));
  app.put("/api/bimester-bills/:id", requireApi("admin"), recalculate("bimonthly"));
  return app;
}
