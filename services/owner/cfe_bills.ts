/**
 * The building's CFE bill (issue 34, item 5): an owner (their own stations) or an admin (any
 * station) enters a station's CFE bill of a period with its PDF; the kWh may come from the
 * station's master meter (a sensor on the main feed) instead of being typed. The owner's
 * billing page reads each station's CFE bills reconciled with the period's finalized unit
 * bills and station bill (rules in core/cfe_bill.ts).
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { StoredDevice } from "../../core/devices.ts";
import { periodOfBill } from "../../core/bill.ts";
import { parsePeriod, type PeriodKind } from "../../core/periods.ts";
import { getZone } from "../../db/zones.ts";
import {
  CFE_PDF_MAX_BYTES,
  type CfeBill,
  type CfeBillInput,
  looksLikePdf,
  reconcile,
  type Reconciliation,
  reconciliationTrend,
} from "../../core/cfe_bill.ts";
import { getCfeBill, getCfeBillPdf, listCfeBills, putCfeBill } from "../../db/cfe_bills.ts";
import { listCustomerBills, listUnitBills } from "../../db/bills.ts";
import { getDevice, getDevices, sensorIdsOf, stationIdsOfCustomer } from "../../db/devices.ts";
import { unitMeterUsage } from "../devices/meter_usage.ts";
import { clockOf } from "../platform/clock.ts";
import { invalid, notFound } from "../refusal.ts";

const NOT_FOUND = "devices.sensor_form.errors.station_not_found";

/** The station `id` if the caller may enter and read its CFE bills; refused (404) otherwise. */
async function stationFor(deps: Deps, user: User, id: number): Promise<StoredDevice> {
  const s = await getDevice(deps.kv, id);
  const mine = user.role === "admin" ||
    (user.role === "customer" && s?.customer_id === user.id);
  if (!s || s.type !== "station" || !mine) throw notFound(NOT_FOUND);
  return s;
}

/** The station's master meter (a sensor flagged as on the main feed), or null. */
export async function masterMeter(deps: Deps, stationId: number): Promise<StoredDevice | null> {
  const sensors = await getDevices(deps.kv, await sensorIdsOf(deps.kv, stationId));
  return sensors.find((s) => s.type === "sensor" && s.config.sensor?.master === true) ?? null;
}

/** An uploaded PDF: its file name and bytes. */
export interface UploadedPdf {
  name: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * Stores the station's CFE bill of the input's period (replacing the one entered before).
 * Without kWh, the master meter's energy over the period fills them; without a master meter,
 * or with a PDF too large or not a PDF, refused naming the field, nothing stored.
 */
export async function saveCfeBill(
  deps: Deps,
  user: User,
  stationId: number,
  input: CfeBillInput,
  pdf: UploadedPdf | null,
): Promise<CfeBill> {
  await stationFor(deps, user, stationId);
  if (pdf && pdf.bytes.length > CFE_PDF_MAX_BYTES) {
    throw invalid({ pdf: "cfe_bill.errors.pdf_too_large" });
  }
  if (pdf && !looksLikePdf(pdf.bytes)) throw invalid({ pdf: "cfe_bill.errors.pdf_type" });
  let kwh = input.kwh;
  let source: CfeBill["kwh_source"] = "entered";
  if (kwh === null) {
    const master = await masterMeter(deps, stationId);
    if (!master) throw invalid({ kwh: "cfe_bill.errors.kwh_required" });
    const { from, to } = clockOf(deps).periodBounds(parsePeriod(input.period));
    const usage = await unitMeterUsage(deps, master, from, to);
    if (usage.readings === 0) throw invalid({ kwh: "cfe_bill.errors.master_no_readings" });
    kwh = Math.round(usage.delta * 1000) / 1000;
    source = "master_meter";
  }
  return await putCfeBill(deps.kv, {
    station_id: stationId,
    period: input.period,
    kwh,
    kw: input.kw,
    amount: Math.round(input.amount * 100),
    currency: "MXN",
    kwh_source: source,
    pdf: pdf ? { name: pdf.name.slice(0, 120) || "cfe.pdf" } : null,
    entered_by: user.id,
    entered_at: deps.now(),
  }, pdf?.bytes ?? null);
}

/** The station's CFE bill of `period` as entered, or null. */
export async function cfeBillOf(
  deps: Deps,
  user: User,
  stationId: number,
  period: string,
): Promise<CfeBill | null> {
  await stationFor(deps, user, stationId);
  return await getCfeBill(deps.kv, stationId, period);
}

/** The PDF of the station's CFE bill of `period`; refused (404) when none was uploaded. */
export async function cfeBillPdf(
  deps: Deps,
  user: User,
  stationId: number,
  period: string,
): Promise<UploadedPdf> {
  await stationFor(deps, user, stationId);
  const pdf = await getCfeBillPdf(deps.kv, stationId, period);
  if (!pdf) throw notFound("cfe_bill.errors.no_pdf");
  return { name: pdf.name, bytes: pdf.bytes };
}

/** A station's CFE bills reconciled, oldest period first (the trend). */
export interface StationReconciliation {
  station_id: number;
  station_name: string;
  /** Whether the station has a master meter (the form may leave kWh empty). */
  has_master: boolean;
  /** The periods its zone bills by. */
  billing_type: PeriodKind;
  rows: (Reconciliation & { has_pdf: boolean; kwh_source: CfeBill["kwh_source"] })[];
}

/** Reconciles one station's CFE bills with its finalized bills of the same periods. */
async function stationReconciliation(
  deps: Deps,
  station: StoredDevice,
): Promise<StationReconciliation> {
  const cfe = await listCfeBills(deps.kv, station.id);
  const periods = new Set(cfe.map((b) => b.period));
  const units = (await listUnitBills(deps.kv, station.id))
    .filter((b) => b.is_finalized && periods.has(periodOfBill(b)));
  const customers = (await listCustomerBills(deps.kv, station.id))
    .filter((b) => b.is_finalized && periods.has(periodOfBill(b)));
  const rows = cfe.map((b) => ({
    ...reconcile(
      b,
      units.filter((u) => periodOfBill(u) === b.period && u.currency === b.currency)
        .map((u) => ({ kwh: u.energy_consumption, total: u.total_cost })),
      customers.filter((c) => periodOfBill(c) === b.period && c.currency === b.currency)
        .map((c) => c.total_amount),
    ),
    has_pdf: b.pdf !== null,
    kwh_source: b.kwh_source,
  }));
  return {
    station_id: station.id,
    station_name: station.name,
    has_master: (await masterMeter(deps, station.id)) !== null,
    billing_type: (station.zone_id === null ? null : await getZone(deps.kv, station.zone_id))
      ?.billing_type ?? "monthly",
    rows: reconciliationTrend(rows, rows.length) as StationReconciliation["rows"],
  };
}

/** The caller's stations (a customer's own; for an admin, `only`) with their reconciliations. */
export async function reconciliations(
  deps: Deps,
  user: User,
  only?: number,
): Promise<StationReconciliation[]> {
  const ids = only !== undefined
    ? [(await stationFor(deps, user, only)).id]
    : user.role === "customer"
    ? await stationIdsOfCustomer(deps.kv, user.id)
    : [];
  const out: StationReconciliation[] = [];
  for (const s of await getDevices(deps.kv, ids)) {
    if (s.type === "station") out.push(await stationReconciliation(deps, s));
  }
  return out;
}
