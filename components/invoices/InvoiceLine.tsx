/**
 * A bill's invoice in a list or card (issue 31): "CFDI" with a small status badge (valid,
 * pending, pending cancellation, canceled, failed, in a global invoice) and, for a reader who
 * may read it, its PDF and XML links; a test invoice says it has no fiscal validity.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { InvoiceShownStatus, InvoiceView } from "../../services/invoices/views.ts";
import type { BadgeTone } from "../kit/StatusBadge.tsx";

const TONES: Record<InvoiceShownStatus, BadgeTone> = {
  valid: "green",
  pending: "yellow",
  pending_cancellation: "yellow",
  canceled: "grey",
  failed: "red",
  in_global: "blue",
};

/** The download link of an invoice's file under `area` (`/user`, `/customer`, `/admin`). */
export function invoiceFileHref(area: string, key: string, format: "pdf" | "xml"): string {
  return `${area}/invoices/file?${new URLSearchParams({ key, format })}`;
}

/** Props of {@link InvoiceLine}. */
interface InvoiceLineProps {
  t: Translate;
  invoice: InvoiceView;
  /** The reader's area, where the download route is mounted. */
  area: string;
}

/** The invoice's status badge and its PDF and XML links. */
export function InvoiceLine({ t, invoice, area }: InvoiceLineProps) {
  const I = (k: string) => t(`invoices.${k}`);
  return (
    <span className="invoice-line" data-testid="invoice-line" data-invoice={invoice.status}>
      <span className={`badge badge-${TONES[invoice.status]}`} title={I("invoice")}>
        {`CFDI · ${I(`status.${invoice.status}`)}`}
      </span>
      {invoice.files && (
        <>
          <a
            href={invoiceFileHref(area, invoice.key, "pdf")}
            download
            data-testid="invoice-pdf"
          >
            {I("pdf")}
          </a>
          <a
            href={invoiceFileHref(area, invoice.key, "xml")}
            download
            data-testid="invoice-xml"
          >
            {I("xml")}
          </a>
        </>
      )}
      {invoice.test && invoice.files && <small className="hint">{I("test_mode")}</small>}
    </span>
  );
}
