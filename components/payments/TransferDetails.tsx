/**
 * The SPEI transfer details of a bill waiting on a transfer (spec 001 section 2): CLABE,
 * reference, bank, amount and validity, each copyable (a small island with the 2 s copied
 * feedback), the expiring-soon badge within 24 h and the receipt link when a charge exists.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { TenantPayment } from "../../services/payments/mod.ts";
import { Island } from "../render.tsx";
import CopyButton from "../../islands/CopyButton.tsx";
import { expiringSoon } from "./format.ts";
import { formatterOf } from "../../core/format.ts";

/** Props of {@link TransferDetails}. */
interface TransferDetailsProps {
  t: Translate;
  p: TenantPayment;
  now: number;
  offsetMinutes: number;
  /** The locale group of the labels (`payments_page.transfer_details` or `payment_form.reference`). */
  group: "payments_page.transfer_details" | "payment_form.reference";
}

/** One copyable value. */
function Copyable(
  { t, group, text, testId }: { t: Translate; group: string; text: string; testId: string },
) {
  return (
    <dd>
      <code data-testid={testId}>{text}</code>
      <Island
        of={CopyButton}
        props={{
          text,
          label: t(`payments.${group}.copy`),
          copiedLabel: t(`payments.${group}.copied`),
        }}
      />
    </dd>
  );
}

/** The details list. */
export function TransferDetails({ t, p, now, offsetMinutes, group }: TransferDetailsProps) {
  const L = (k: string) => t(`payments.${group}.${k}`);
  const f = formatterOf(t, offsetMinutes);
  const amount = (p.amount_due / 100).toFixed(2);
  return (
    <dl className="pay-details" data-testid="transfer-details">
      <div>
        <dt>{L("clabe")}</dt>
        <Copyable t={t} group={group} text={p.spei_clabe ?? ""} testId="spei-clabe" />
      </div>
      <div>
        <dt>{L("reference")}</dt>
        <Copyable t={t} group={group} text={p.spei_reference ?? ""} testId="spei-reference" />
      </div>
      <div>
        <dt>{L("bank")}</dt>
        <dd data-testid="spei-bank">{p.spei_bank ?? "—"}</dd>
      </div>
      <div>
        <dt>{group === "payment_form.reference" ? L("exact_amount") : L("amount")}</dt>
        <dd>
          <strong data-testid="spei-amount">{f.money(p.amount_due, p.currency)}</strong>
          <Island
            of={CopyButton}
            props={{
              text: amount,
              label: t(`payments.${group}.copy`),
              copiedLabel: t(`payments.${group}.copied`),
            }}
          />
        </dd>
      </div>
      <div>
        <dt>{L("valid_until")}</dt>
        <dd data-testid="spei-expiry">
          {f.dateTime(p.spei_expiry_date)}
          {expiringSoon(p.spei_expiry_date, now) && (
            <span className="badge badge-orange" data-testid="expiring-soon">
              {t("payments.payments_page.transfer_details.expiring_soon")}
            </span>
          )}
        </dd>
      </div>
      {p.pdf_receipt_url && (
        <div>
          <dt />
          <dd>
            <a href={p.pdf_receipt_url} target="_blank" rel="noopener" data-testid="receipt-link">
              {group === "payment_form.reference" ? L("download_receipt") : L("view_receipt")}
            </a>
          </dd>
        </div>
      )}
    </dl>
  );
}
