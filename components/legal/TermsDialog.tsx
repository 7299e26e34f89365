/**
 * The header's terms and privacy dialog (spec 000, layout: "Terms and privacy modal with two
 * tabs"; spec 001: tabs terms and privacy, cancel and accept). Sent on demand as a fragment
 * (`GET /legal/dialog`) by the header's `TermsDialog` island, so pages do not carry the long
 * texts; without JavaScript the header's link opens the `/legal` page instead.
 */
import { renderToStaticMarkup } from "react-dom/server";
import type { Translate } from "../../services/platform/i18n.ts";
import type { LegalDoc } from "../../core/legal.ts";
import { LegalSections } from "../../islands/TermsConsent.tsx";

/** Props of {@link TermsDialog}. */
interface TermsDialogProps {
  t: Translate;
  terms: LegalDoc;
  privacy: LegalDoc;
}

/** The dialog: a tab list, both texts (Spanish only), Cancel and Accept (both close it). */
function TermsDialog({ t, terms, privacy }: TermsDialogProps) {
  const A = (k: string) => t(`auth.register.${k}`);
  const doc = (d: LegalDoc, id: string, tab: string) => (
    <section
      className="legal"
      id={`header-${id}-doc`}
      role="tabpanel"
      aria-labelledby={`header-${id}-tab`}
      lang="es"
      hidden={id !== "terms"}
      data-doc={id}
    >
      <h3>{d.title || tab}</h3>
      <LegalSections doc={d} />
    </section>
  );
  return (
    <div
      className="modal open"
      id="terms-privacy"
      role="dialog"
      aria-modal="true"
      aria-labelledby="terms-privacy-title"
      data-testid="terms-privacy"
    >
      <div className="modal-box">
        <div className="modal-head">
          <h2 id="terms-privacy-title">{A("terms_title")}</h2>
        </div>
        <div className="tabs" role="tablist" style={{ padding: "0 1.25rem", margin: 0 }}>
          {(["terms", "privacy"] as const).map((k) => (
            <button
              key={k}
              type="button"
              role="tab"
              id={`header-${k}-tab`}
              className="tab link-btn"
              style={{ textDecoration: "none" }}
              data-tab={k}
              aria-controls={`header-${k}-doc`}
              aria-selected={k === "terms"}
            >
              {A(`${k}_tab`)}
            </button>
          ))}
        </div>
        <div className="modal-body" tabIndex={0}>
          {doc(terms, "terms", A("terms_tab"))}
          {doc(privacy, "privacy", A("privacy_tab"))}
        </div>
        <div className="modal-foot">
          <button type="button" className="btn btn-secondary" data-close>
            {t("common.cancel")}
          </button>
          <button type="button" className="btn" data-close data-testid="terms-privacy-accept">
            {A("accept")}
          </button>
        </div>
      </div>
    </div>
  );
}

/** The dialog's HTML fragment. */
export function termsDialogHtml(props: TermsDialogProps): string {
  return renderToStaticMarkup(<TermsDialog {...props} />);
}
