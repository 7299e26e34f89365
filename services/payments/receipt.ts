/**
 * The SPEI receipt ("ficha de pago") the portal serves itself when the processor has no
 * dashboard to link (test mode with the local sandbox): a one-page PDF of the tenant's live
 * reference (CLABE, reference, bank, exact amount, validity, unit and period) in the tenant's
 * language. Only the bill's tenant gets it, and only while the bill waits on a transfer.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { Translate } from "../platform/i18n.ts";
import { formatterOf } from "../../core/format.ts";
import { periodLabel } from "../../core/periods.ts";
import { clockOf } from "../platform/clock.ts";
import { PdfWriter } from "../reports/pdf/writer.ts";
import { notFound } from "../refusal.ts";
import { PAYMENT_ERRORS } from "./references.ts";
import { tenantPayment } from "./tenant.ts";

/** A receipt file. */
export interface ReceiptFile {
  bytes: Uint8Array;
  filename: string;
}

/** The receipt of the caller's bill `id` (not found without a live reference). */
export async function speiReceipt(
  deps: Deps,
  user: User,
  id: number,
  t: Translate,
): Promise<ReceiptFile> {
  const p = await tenantPayment(deps, user, id);
  if (p.status !== "awaiting_spei_transfer" || !p.spei_clabe || !p.spei_reference) {
    throw notFound(PAYMENT_ERRORS.notFound);
  }
  const L = (k: string) => t(`payments.payment_form.reference.${k}`);
  const S = (k: string) => t(`payments.payment_form.summary.${k}`);
  const f = formatterOf(t, clockOf(deps).offsetMinutes());
  const pdf = await PdfWriter.create(L("download_receipt"), "SPEI");
  pdf.heading(L("title"), 18);
  pdf.gap(6);
  pdf.line(L("clabe"), p.spei_clabe, true);
  pdf.line(L("reference"), p.spei_reference, true);
  pdf.line(L("bank"), p.spei_bank ?? "—");
  pdf.line(L("exact_amount"), f.money(p.amount_due, p.currency), true);
  pdf.line(L("valid_until"), p.spei_expiry_date ? f.dateTime(p.spei_expiry_date) : "—");
  pdf.gap();
  pdf.line(S("unit"), `${p.station_name} · ${p.unit_name}`);
  pdf.line(S("billing_period"), periodLabel(t, p.billing_period));
  pdf.line(S("due_date"), p.due_date ? f.date(p.due_date) : "—");
  pdf.gap();
  pdf.paragraph(L("exact_amount_hint"));
  pdf.paragraph(L("validity_note"));
  pdf.paragraph(t("payments.test_mode"));
  return { bytes: await pdf.save(), filename: `ficha_spei_${p.id}.pdf` };
}
