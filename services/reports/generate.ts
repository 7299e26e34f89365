/**
 * PDF reports (spec 001 section 7, "Reports"): `POST /reports/generate` and
 * `/api/reports/generate` with `{reportType, stationId, unitId?, month | period, language}`.
 *
 * - `monthly` / `bimester`: the unit bill of `unitId` for the month `YYYY-MM` / the bimester
 *   `YYYY-MM-MM`; `customer` / `bimester_customer`: the station (customer) bill and its unit
 *   bills. Language en, es or de (default: the asker's language).
 * - Who may (DESIGN.md): admin every report; a customer the reports of its own stations; a
 *   tenant the unit reports of its own units (the unit's sensor is theirs, or the bill was
 *   theirs). A tenant asking for a customer report is refused (403); a station, unit or bill
 *   the asker may not see is "not found" (404), as is a period without a bill.
 * - File names: `{reportType}_report_{stationId}_{unitId}_{period}_{language}.pdf` for unit
 *   reports, `{reportType}_report_{stationId}_{period}_{language}.pdf` for customer reports.
 */
import { Refusal } from "../refusal.ts";
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { Language } from "../../core/roles.ts";
import { REPORT_INPUT_ERRORS, type ReportInput } from "../../core/report_request.ts";
import type { Zone } from "../../core/zone.ts";
import { getDevice, unitBindings } from "../../db/devices.ts";
import { type StoredDevice } from "../../core/devices.ts";
import { getUser } from "../../db/users.ts";
import { getZoneInForce } from "../../db/zones.ts";
import { clockOf } from "../platform/clock.ts";
import {
  getUnitBillOf,
  listUnitBills,
  readStationBills,
  type StoredCustomerBill,
  type StoredUnitBill,
} from "../../db/bills.ts";
import { periodOfBill } from "../../core/bill.ts";
import { zoneOfBill } from "../../core/reports.ts";
import { renderUnitPdf } from "./pdf/unit_pdf.ts";
import { renderCustomerPdf } from "./pdf/customer_pdf.ts";
import { invoiceNumber } from "../../core/owner_rules.ts";
import { dueDateAfter } from "../../core/payment.ts";
import { localDate, localParts } from "../../core/local_time.ts";

/** Locale keys of the refusals. */
export const REPORT_ERRORS = {
  ...REPORT_INPUT_ERRORS,
  forbidden: "reports.errors.forbidden",
  stationNotFound: "reports.errors.station_not_found",
  unitNotFound: "reports.errors.unit_not_found",
  noBill: "reports.errors.no_bill",
  noCustomerBill: "reports.errors.no_customer_bill",
} as const;

/** A refused report (services/refusal.ts): bad request, forbidden, or not found. */
function refused(
  kind: "invalid" | "forbidden" | "not_found",
  key: string,
  params: Record<string, string> = {},
) {
  return new Refusal(kind, key, {}, undefined, params);
}

/** A validated report request (core/report_request.ts) in the language it is written in. */
type ReportRequest = ReportInput & { language: Language };

/** A finished report. */
export interface ReportFile {
  bytes: Uint8Array;
  filename: string;
}

/** The file name of a report (spec 001 section 7). */
function reportFileName(req: ReportRequest): string {
  const unit = req.unitId === null ? "" : `_${req.unitId}`;
  return `${req.reportType}_report_${req.stationId}${unit}_${req.period}_${req.language}.pdf`;
}

/** The pricing zone `id` as it is in force today, or null (none, or no such zone). */
export async function currentZone(deps: Deps, id: number | null): Promise<Zone | null> {
  if (id === null) return null;
  return await getZoneInForce(deps.kv, id, clockOf(deps).todayText());
}

/** The full name of account `id`, or null. */
export async function nameOf(deps: Deps, id: number | null | undefined): Promise<string | null> {
  if (id === null || id === undefined) return null;
  return (await getUser(deps.kv, id))?.full_name ?? null;
}

/** The unit bills of a station for a period, in key order. */
export async function periodUnitBills(
  deps: Deps,
  stationId: number,
  period: string,
): Promise<StoredUnitBill[]> {
  return (await listUnitBills(deps.kv, stationId)).filter((b) => periodOfBill(b) === period);
}

/** The tenant currently bound to a unit (through its sensor), or null. */
export async function unitTenant(
  deps: Deps,
  station: StoredDevice,
  unitId: string,
): Promise<number | null> {
  const sensorId = (await unitBindings(deps.kv, station.id)).get(unitId);
  const sensor = sensorId === undefined ? null : await getDevice(deps.kv, sensorId);
  const unit = station.config.station?.units.find((u) => u.id === unitId);
  return sensor?.tenant_id ?? sensor?.config.sensor?.tenant_id ?? unit?.tenant_id ?? null;
}

/**
 * Builds a report for `viewer`. Refuses a role that may not have this
 * kind of report (forbidden), a station, unit or bill that is missing or not theirs (not found).
 * Drafts (bills of a period still open) are previews for the admin: others get not found.
 */
export async function generateReport(
  deps: Deps,
  viewer: User,
  req: ReportRequest,
): Promise<ReportFile> {
  const unitReport = req.unitId !== null;
  if (viewer.role === "user" && !unitReport) throw refused("forbidden", REPORT_ERRORS.forbidden);
  const station = await getDevice(deps.kv, req.stationId);
  if (!station || station.type !== "station") {
    throw refused("not_found", REPORT_ERRORS.stationNotFound);
  }
  if (viewer.role === "customer" && station.customer_id !== viewer.id) {
    throw refused("not_found", REPORT_ERRORS.stationNotFound);
  }
  const t = deps.i18n.t(req.language);
  const portal = t("common.app_name");
  if (unitReport) {
    const unit = station.config.station?.units.find((u) => u.id === req.unitId);
    const tenantNow = unit ? await unitTenant(deps, station, unit.id) : null;
    const bill = unit ? await getUnitBillOf(deps.kv, station.id, req.period, unit.id) : null;
    if (
      !unit ||
      (viewer.role === "user" && tenantNow !== viewer.id && bill?.tenant_id !== viewer.id)
    ) {
      throw refused("not_found", REPORT_ERRORS.unitNotFound);
    }
    if (!bill || (viewer.role !== "admin" && !bill.is_finalized)) {
      throw refused("not_found", REPORT_ERRORS.noBill, { period: req.period });
    }
    const bytes = await renderUnitPdf({
      t,
      lang: req.language,
      portal,
      station,
      unit: { id: unit.id, name: unit.name || unit.id },
      tenant: await nameOf(deps, bill.tenant_id ?? tenantNow),
      bill,
      zone: zoneOfBill(bill.zone_snapshot, await currentZone(deps, bill.zone_id)),
    });
    return { bytes, filename: reportFileName(req) };
  }
  const customer: StoredCustomerBill | null =
    (await readStationBills(deps.kv, station.id, req.period, [])).customer.value;
  if (!customer || (viewer.role !== "admin" && !customer.is_finalized)) {
    throw refused("not_found", REPORT_ERRORS.noCustomerBill, { period: req.period });
  }
  const units = await periodUnitBills(deps, station.id, req.period);
  const tenants = new Map<number, string>();
  for (const b of units) {
    if (b.tenant_id !== null && !tenants.has(b.tenant_id)) {
      const n = await nameOf(deps, b.tenant_id);
      if (n) tenants.set(b.tenant_id, n);
    }
  }
  // Issued when the period's bills were finalized (the latest), due 10 business days later.
  const offset = clockOf(deps).offsetMinutes();
  const finalized = units.map((b) => b.finalized_at).filter((x): x is string => x !== null)
    .sort().at(-1);
  const issuedMs = customer.is_finalized ? Date.parse(finalized ?? customer.updated_at) : NaN;
  const invoice = Number.isNaN(issuedMs) ? null : {
    number: invoiceNumber(customer),
    issued: localDate(issuedMs, offset),
    due: dueDateAfter(localParts(issuedMs, offset)),
  };
  const bytes = await renderCustomerPdf({
    t,
    lang: req.language,
    portal,
    station,
    customer: await nameOf(deps, customer.customer_id ?? station.customer_id),
    bill: customer,
    units,
    tenants,
    invoice,
  });
  return { bytes, filename: reportFileName(req) };
}
