/** The start every report PDF shares: the writer, its wording helpers and the header lines. */
import type { Language } from "../../../core/roles.ts";
import type { StoredDevice } from "../../../core/devices.ts";
import type { Translate } from "../../platform/i18n.ts";
import { cityOf } from "../../../core/reports.ts";
import { periodLabel } from "../../../core/periods.ts";
import { formatter } from "../../../core/format.ts";
import { PdfWriter } from "./writer.ts";

/** What the header names. */
interface ReportHeadInput {
  t: Translate;
  lang: Language;
  portal: string;
  station: StoredDevice;
  bill: { billing_month?: string | null; billing_period?: string | null; currency: string };
}

/**
 * Opens a report titled `reports.pdf.{titleKey}` and draws the portal, the title, the period
 * and the station with its place; answers the writer, the `reports.pdf.*` wording, the
 * bill's money format and the period.
 */
export async function openReport(input: ReportHeadInput, titleKey: string) {
  const { t, lang, bill } = input;
  const P = (k: string, p?: Record<string, string | number>) => t(`reports.pdf.${k}`, p);
  const money = (cents: number) => formatter(lang).money(cents, bill.currency);
  const period = bill.billing_month ?? bill.billing_period ?? "";
  const title = P(titleKey);
  const w = await PdfWriter.create(`${title} ${period}`, input.portal);
  w.heading(input.portal, 18);
  w.heading(title, 14);
  w.line(P("period"), `${periodLabel(t, period)} (${period})`);
  w.line(P("station"), `${input.station.name} (${input.station.serial_number})`);
  w.line(P("location"), cityOf(t, input.station.location));
  return { w, P, money, period };
}
