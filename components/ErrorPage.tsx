/** The error page: 'Something went wrong' with expandable details. */
import type { Translate } from "../services/platform/i18n.ts";

/** Props of {@link ErrorPage}. */
interface ErrorPageProps {
  t: Translate;
  /** The exception's text (development only), or null. */
  details: string | null;
  home: string;
}

/** Shown when a page fails unexpectedly. */
export function ErrorPage({ t, details, home }: ErrorPageProps) {
  return (
    <main className="error-page card" role="alert">
      <h1>{t("errors.something_went_wrong")}</h1>
      <p>{t("errors.something_went_wrong_text")}</p>
      <div className="page-actions">
        <a className="btn" href={home}>{t("errors.go_home")}</a>
      </div>
      {details !== null && (
        <details>
          <summary>{t("errors.details")}</summary>
          <pre>{details}</pre>
        </details>
      )}
    </main>
  );
}
