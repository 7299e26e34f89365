/** The terms and conditions and the privacy notice (Spanish only), on one page. */
import type { Translate } from "../services/platform/i18n.ts";
import { LegalSections } from "../islands/TermsConsent.tsx";
import type { LegalDoc } from "../core/legal.ts";

/** Props of {@link LegalPage}. */
interface LegalPageProps {
  t: Translate;
  terms: LegalDoc;
  privacy: LegalDoc;
  back: string;
}

/** Both legal documents with links to each; they are written in Spanish only. */
export function LegalPage({ t, terms, privacy, back }: LegalPageProps) {
  const doc = (d: LegalDoc, id: string) => (
    <section className="card legal" id={id} lang="es" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{d.title}</h2>
      <LegalSections doc={d} />
    </section>
  );
  return (
    <main className="content" style={{ margin: "0 auto", maxWidth: "860px" }}>
      <div className="page-head">
        <h1>{t("auth.register.terms_title")}</h1>
        <a className="btn btn-secondary" href={back}>{t("common.back")}</a>
      </div>
      <nav className="tabs" aria-label={t("auth.register.terms_title")}>
        <a className="tab" href="#terms">{t("auth.register.terms_tab")}</a>
        <a className="tab" href="#privacy">{t("auth.register.privacy_tab")}</a>
      </nav>
      {doc(terms, "terms")}
      {doc(privacy, "privacy")}
    </main>
  );
}
