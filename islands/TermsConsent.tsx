/**
 * The terms checkbox of the registration form with the terms and privacy dialog (two
 * tabs, Cancel and Accept). Ticking the box opens the dialog instead; accepting ticks it.
 * Without JavaScript the box is a plain checkbox and the link opens the dialog
 * (`#terms-dialog`, shown by CSS as the target) with both texts one after the other.
 */
import type { LegalDoc } from "../core/legal.ts";

/** The sections of a legal document (also used by the server-rendered legal page). */
export function LegalSections({ doc }: { doc: LegalDoc }) {
  return (
    <>
      {doc.sections.map((s, i) => (
        <div key={i}>
          <h3>{s.heading}</h3>
          {s.paragraphs.map((p, j) => <p key={j}>{p}</p>)}
        </div>
      ))}
    </>
  );
}

/** Props of the consent island. */
interface TermsConsentProps {
  checked: boolean;
  error: string | null;
  terms: LegalDoc;
  privacy: LegalDoc;
  texts: {
    label: string;
    read: string;
    title: string;
    termsTab: string;
    privacyTab: string;
    accept: string;
    cancel: string;
  };
}

/**
 * The consent checkbox and its dialog, rendered once on the server. The browser side
 * (`TermsConsent.client.ts`, a plain script that reads only this markup) shows the tabs,
 * opens the dialog when the box is ticked or the link followed, and ticks the box on Accept.
 */
export default function TermsConsent({ checked, error, terms, privacy, texts }: TermsConsentProps) {
  const doc = (d: LegalDoc, id: string) => (
    <section className="legal" id={id} lang="es" aria-label={d.title}>
      <h3>{d.title}</h3>
      <LegalSections doc={d} />
    </section>
  );

  return (
    <div className="field">
      <div className="check">
        <input
          id="terms"
          name="terms"
          type="checkbox"
          defaultChecked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "terms-error" : undefined}
        />
        <label htmlFor="terms" style={{ fontWeight: 400 }}>
          {texts.label} <a href="#terms-dialog">{texts.read}</a>
        </label>
      </div>
      {error && <p className="field-error" id="terms-error">{error}</p>}
      <div
        className="modal"
        id="terms-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="terms-dialog-title"
      >
        <div className="modal-box">
          <div className="modal-head">
            <h2 id="terms-dialog-title">{texts.title}</h2>
          </div>
          <div
            className="tabs"
            role="tablist"
            hidden
            style={{ padding: "0 1.25rem", margin: 0 }}
          >
            {(["terms", "privacy"] as const).map((k) => (
              <button
                key={k}
                type="button"
                role="tab"
                className="tab link-btn"
                style={{ textDecoration: "none" }}
                data-tab={k}
                aria-controls={`${k}-doc`}
              >
                {k === "terms" ? texts.termsTab : texts.privacyTab}
              </button>
            ))}
          </div>
          <div className="modal-body" tabIndex={0}>
            {doc(terms, "terms-doc")}
            {doc(privacy, "privacy-doc")}
          </div>
          <div className="modal-foot">
            <a className="btn btn-secondary" href="#" data-cancel>
              {texts.cancel}
            </a>
            <a className="btn" href="#" data-accept data-testid="terms-accept">
              {texts.accept}
            </a>
          </div>
        </div>
      </div>
    </div>
  );
}
