/**
 * The owner's invoice (spec 001 sections 2 and 7): the station (customer) report of a month,
 * or of the pair holding it for a bimonthly zone, named `invoice_{name}_{month}_{lang}.pdf`.
 * The report service decides who may have it and draws it, so the invoice shows the same
 * commission, fee, tax and totals as the admin's station report.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { Language } from "../../core/roles.ts";
import { bimonthlyPeriod, parsePeriod } from "../../core/periods.ts";
import { invoiceFileName } from "../../core/owner_rules.ts";
import { generateReport, type ReportFile } from "../reports/mod.ts";
import { ownerStation } from "./stations.ts";

/** Invoice languages offered by the dialog (spec 001 section 9: en, es on owner views). */
export const INVOICE_LANGUAGES = ["en", "es"] as const;

/** The invoice of the caller's station `id` for `month` (`YYYY-MM`) in `language`. */
export async function ownerInvoice(
  deps: Deps,
  user: User,
  id: number,
  month: string,
  language: Language,
): Promise<ReportFile> {
  const { station, zone } = await ownerStation(deps, user, id);
  const p = parsePeriod(month);
  const bimonthly = zone?.billing_type === "bimonthly";
  const file = await generateReport(deps, user, {
    reportType: bimonthly ? "bimester_customer" : "customer",
    stationId: id,
    unitId: null,
    period: bimonthly ? bimonthlyPeriod(p.year, p.months[0]) : month,
    language,
  });
  return { ...file, filename: invoiceFileName(station.name, month, language) };
}
