/**
 * A tenant's PDF reports (spec 001 section 7, "Reports"): the report of one of their bills,
 * named `{type}_report_{station}_{unit}_{period}.pdf`, and the reports of every bill of a period
 * in one file. Who may have which report is decided by the report service itself.
 */
import { PDFDocument } from "pdf-lib";
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { Language } from "../../core/roles.ts";
import { isPeriod, parsePeriod } from "../../core/periods.ts";
import type { TenantReportQuery } from "../../core/tenant_report.ts";
import { generateReport, REPORT_ERRORS, type ReportFile } from "../reports/mod.ts";
import { invalid, notFound } from "../refusal.ts";
import { tenantBillRows } from "./bills.ts";

/**
 * A tenant's report request as the billing page sends it (query of a download link, validated
 * by the route: `core/tenant_report.ts`), in the language asked or the tenant's.
 */
type TenantReportRequest = TenantReportQuery & { language: Language };

const typeOf = (period: string) => parsePeriod(period).kind === "monthly" ? "monthly" : "bimester";

/** The report of one of the caller's bills, named as the tenant's download. */
export async function tenantReport(
  deps: Deps,
  user: User,
  req: TenantReportRequest,
): Promise<ReportFile> {
  const type = typeOf(req.period);
  const file = await generateReport(deps, user, {
    reportType: type,
    stationId: req.station,
    unitId: req.unit,
    period: parsePeriod(req.period).text,
    language: req.language,
  });
  return { ...file, filename: `${type}_report_${req.station}_${req.unit}_${req.period}.pdf` };
}

/** The reports of every bill of the caller in `period`, in one PDF; not found when none. */
export async function periodReport(
  deps: Deps,
  user: User,
  period: string,
  language: Language,
): Promise<ReportFile> {
  if (!isPeriod(period)) throw invalid({ period: REPORT_ERRORS.invalidPeriod });
  const rows = await tenantBillRows(deps, user, { period });
  if (rows.length === 0) throw notFound(REPORT_ERRORS.noBill);
  const out = await PDFDocument.create();
  for (const r of rows) {
    const file = await tenantReport(deps, user, {
      station: r.bill.station_id,
      unit: r.bill.unit_id,
      period,
      language,
    });
    const doc = await PDFDocument.load(file.bytes);
    for (const page of await out.copyPages(doc, doc.getPageIndices())) out.addPage(page);
  }
  return { bytes: await out.save(), filename: `${typeOf(period)}_report_${period}.pdf` };
}
