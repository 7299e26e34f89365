/**
 * The terms checkbox of the registration form with the terms and privacy dialog (two
 * tabs, Cancel and Accept). Ticking the box opens the dialog instead; accepting ticks it.
 * Without JavaScript the box is a plain checkbox and the link opens the dialog (`#terms`).
 */
import { useEffect, useState } from "react";
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
export interface TermsConsentProps {
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

/** The consent checkbox and its dialog. */
export default function TermsConsent({ checked, error, terms, privacy, texts }: TermsConsentProps) {
  const [isChecked, setChecked] = useState(checked);
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<"terms" | "privacy">("terms");
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  const doc = (d: LegalDoc, id: string, hidden: boolean) => (
    <section className="legal" id={id} hidden={hidden} lang="es" aria-label={d.title}>
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
          checked={isChecked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "terms-error" : undefined}
          onChange={(e) => {
            if (e.target.checked && !isChecked) {
              setTab("terms");
              setOpen(true);
            } else setChecked(e.target.checked);
          }}
        />
        <label htmlFor="terms" style={{ fontWeight: 400 }}>
          {texts.label}{" "}
          <a
            href="#terms-dialog"
            onClick={(e) => {
              e.preventDefault();
              setOpen(true);
            }}
          >
            {texts.read}
          </a>
        </label>
      </div>
      {error && <p className="field-error" id="terms-error">{error}</p>}
      <div
        className={`modal${open ? " open" : ""}`}
        id="terms-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="terms-dialog-title"
      >
        <div className="modal-box">
          <div className="modal-head">
            <h2 id="terms-dialog-title">{texts.title}</h2>
          </div>
          {enhanced && (
            <div className="tabs" role="tablist" style={{ padding: "0 1.25rem", margin: 0 }}>
              {(["terms", "privacy"] as const).map((k) => (
                <button
                  key={k}
                  type="button"
                  role="tab"
                  className="tab link-btn"
                  style={{ textDecoration: "none" }}
                  aria-selected={tab === k}
                  aria-current={tab === k ? "page" : undefined}
                  onClick={() => setTab(k)}
                >
                  {k === "terms" ? texts.termsTab : texts.privacyTab}
                </button>
              ))}
            </div>
          )}
          <div className="modal-body" tabIndex={0}>
            {doc(terms, "terms-doc", enhanced && tab !== "terms")}
            {doc(privacy, "privacy-doc", enhanced && tab !== "privacy")}
          </div>
          <div className="modal-foot">
            <a
              className="btn btn-secondary"
              href="#"
              onClick={(e) => {
                e.preventDefault();
                setOpen(false);
              }}
            >
              {texts.cancel}
            </a>
            <a
              className="btn"
              href="#"
              data-testid="terms-accept"
              onClick={(e) => {
                e.preventDefault();
                setChecked(true);
                setOpen(false);
              }}
            >
              {texts.accept}
            </a>
          </div>
        </div>
      </div>
    </div>
  );
}
