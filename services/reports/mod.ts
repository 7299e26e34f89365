/**
 * Reports (spec 001 sections 2 and 7): the admin's station and unit report pages
 * (`views.ts`, with the pure helpers of `core/reports.ts`) and the PDF reports (`generate.ts`, drawn by
 * `pdf/`). Routes import from here.
 */
export { generateReport, REPORT_ERRORS, type ReportFile } from "./generate.ts";
export {
  type PeriodRow,
  type StationContext,
  stationContext,
  stationReport,
  type StationReportData,
  unitBillOf,
  unitReport,
} from "./views.ts";
