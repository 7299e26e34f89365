/**
 * Words a delivery in its recipient's language at sending time, with the portal's name and
 * contact, from what the store holds now (the bill as it is, the PDF made from it); links are
 * built from `PUBLIC_URL`. A message whose subject is gone (a deleted bill) renders as null.
 */
import type { Deps } from "../deps.ts";
import type { StoredUser } from "../../db/users.ts";
import type { Delivery } from "../../db/outbox.ts";
import { getCustomerBillEntry, getUnitBill } from "../../db/bills.ts";
import { getDevice } from "../../db/devices.ts";
import { periodOfBill } from "../../core/bill.ts";
import { amountDue } from "../../core/payment.ts";
import { periodLabel } from "../../core/periods.ts";
import type { MailContent } from "../../core/messages_render.ts";
import { formatter } from "../../core/format.ts";
import { clockOf } from "../platform/clock.ts";
import { generateReport } from "../reports/mod.ts";
import type { ReportInput } from "../../core/report_request.ts";
import { publicUser } from "../../db/users.ts";
import { resetToken } from "../password_reset.ts";
import { alertMessage } from "../alerts/words.ts";
import { zonePricesWords } from "./zone_prices.ts";
import { ownerSummaryWords } from "./owner_summary.ts";
import { invoiceMailOf } from "./invoice_mail.ts";

/** A worded message: the mail's pieces, its attachments, and the values of a WhatsApp template. */
export interface Rendered {
  content: MailContent;
  attachments: { filename: string; content: Uint8Array; contentType: string }[];
  /** Template parameters for WhatsApp, in order. */
  values: string[];
}

/** The portal's address for links in messages. */
export function publicBase(deps: Deps): string {
  return deps.config.publicUrl?.origin ?? `http://localhost:${deps.config.port}`;
}

/** The message of `d` for `user`, or null when what it is about is gone. */
export async function renderDelivery(
  deps: Deps,
  d: Delivery,
  user: StoredUser,
): Promise<Rendered | null> {
  const lang = user.language;
  const t = deps.i18n.t(lang);
  const f = formatter(lang, clockOf(deps).offsetMinutes());
  const portal = t("common.app_name");
  const base = publicBase(deps);
  const c = deps.config.contact;
  const contact = [c.email, c.phone, c.website].filter((s) => s !== "").join(" · ");
  const footer = [portal, ...(contact ? [t("messages.footer_contact", { contact })] : [])];
  footer.push(t("messages.footer_why", { portal }));
  const k = `messages.${d.kind}`;
  const words = (values: Record<string, string>, action?: string): Rendered => ({
    content: {
      subject: t(`${k}.subject`, values),
      greeting: t("messages.greeting", { name: user.full_name }),
      paragraphs: [t(`${k}.body`, values)],
      action: action ? { label: t(`${k}.action`), url: `${base}${action}` } : undefined,
      footer,
    },
    attachments: [],
    values: Object.values(values),
  });
  /** Attaches the PDF report `req` names, in the reader's language. */
  const attachReport = async (out: Rendered, req: Omit<ReportInput, "language">) => {
    const file = await generateReport(deps, publicUser(user), { ...req, language: lang });
    out.attachments.push({
      filename: file.filename,
      content: file.bytes,
      contentType: "application/pdf",
    });
  };
  switch (d.kind) {
    case "password_reset":
      return words(
        { portal },
        `/reset-password?token=${
          encodeURIComponent(await resetToken(deps.secret, String(d.params.reset_id)))
        }`,
      );
    case "password_changed":
      return words({ portal });
    case "email_changed":
      return words({ portal, email: user.email });
    case "bill_finalized":
    case "bill_reminder":
    case "bill_overdue":
    case "spei_reference":
    case "payment_receipt": {
      const bill = await getUnitBill(deps.kv, Number(d.params.bill_id));
      if (!bill) return null;
      const station = await getDevice(deps.kv, bill.station_id);
      const unit = station?.config.station?.units.find((u) => u.id === bill.unit_id)?.name ||
        bill.unit_id;
      const period = periodOfBill(bill);
      const money = (cents: number) => f.money(cents, bill.currency);
      const values: Record<string, string> = {
        unit,
        station: station?.name ?? "",
        period: periodLabel(t, period, true),
        amount: money(d.kind === "bill_finalized" ? bill.total_cost : amountDue(bill)),
        due: bill.payment_due_date ? f.date(bill.payment_due_date) : "",
      };
      if (d.kind === "bill_overdue") values.fee = money(bill.late_fee);
      if (d.kind === "spei_reference") {
        Object.assign(values, {
          clabe: bill.spei_clabe ?? "",
          bank: bill.spei_bank ?? "",
          reference: bill.spei_reference ?? "",
          expiry: bill.spei_expiry_date ? f.date(bill.spei_expiry_date) : "",
        });
      }
      if (d.kind === "payment_receipt") {
        values.date = bill.payment_date ? f.date(bill.payment_date) : "";
      }
      const link = d.kind === "spei_reference"
        ? "/user/payment"
        : `/user/billing?period=${encodeURIComponent(period)}`;
      const out = words(values, link);
      if (d.kind === "bill_finalized") {
        await attachReport(out, {
          reportType: period.length > 7 ? "bimester" : "monthly",
          stationId: bill.station_id,
          unitId: bill.unit_id,
          period,
        });
      }
      return out;
    }
    case "owner_statement": {
      const entry = await getCustomerBillEntry(deps.kv, Number(d.params.bill_id));
      if (!entry) return null;
      const bill = entry.value;
      const station = await getDevice(deps.kv, bill.station_id);
      const period = periodOfBill(bill);
      const out = words({
        station: station?.name ?? "",
        period: periodLabel(t, period, true),
        amount: f.money(bill.total_amount, bill.currency),
      }, `/customer/installations/${bill.station_id}`);
      await attachReport(out, {
        reportType: period.length > 7 ? "bimester_customer" : "customer",
        stationId: bill.station_id,
        unitId: null,
        period,
      });
      return out;
    }
    case "meter_offline":
      return words(
        { count: String(d.params.count), stations: String(d.params.stations) },
        "/admin/devices",
      );
    case "reconciliation_failed":
      return words({
        reason: t(`payments.admin.reasons.${d.params.reason}`),
        charge: String(d.params.charge),
        bill: String(d.params.bill),
      }, "/admin/payments");
    case "failed_digest":
      return words({ count: String(d.params.count) }, "/admin/messages");
    case "owner_payments": {
      const m = await ownerSummaryWords(deps, user, t, f);
      return m ? words(m.values, m.link) : null;
    }
    case "zone_prices": {
      const m = await zonePricesWords(deps.kv, d.params, t, f);
      return m ? words(m.values, m.link) : null;
    }
    case "invoice_issued": {
      const m = await invoiceMailOf(deps, String(d.params.invoice_key), t, f);
      if (!m) return null;
      const out = words(m.values, m.link);
      if (m.test) out.content.paragraphs.push(t(`${k}.test`));
      out.attachments.push(...m.files);
      return out;
    }
    case "alert": {
      const id = String(d.params.alert_id);
      const m = await alertMessage(deps, id, String(d.params.transition), t, f);
      return m ? words(m.values, m.link) : null;
    }
  }
}
