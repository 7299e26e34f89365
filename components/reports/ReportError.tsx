/** The error state of a report page: a title, the message and the ways back. */
import type { Translate } from "../../services/platform/i18n.ts";

/** Props of {@link ReportError}. */
interface ReportErrorProps {
  t: Translate;
  title: string;
  message: string;
  /** Where "back" goes, and its label. */
  back: { href: string; label: string };
  /** The page again (Try Again), when it makes sense. */
  retry?: string;
}

/** The state. */
export function ReportErrorState({ t, title, message, back, retry }: ReportErrorProps) {
  return (
    <section className="card empty" data-testid="report-error">
      <h1>{title}</h1>
      <p className="field-error" role="alert">{message}</p>
      <div className="row-actions">
        <a className="btn btn-secondary" href={back.href}>{back.label}</a>
        {retry && <a className="btn" href={retry}>{t("reports.station_report.errors.try_again")}
        </a>}
      </div>
    </section>
  );
}
