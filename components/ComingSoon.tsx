/** A plain notice for a section of the portal that is not available yet (no dead links). */
import type { Translate } from "../services/platform/i18n.ts";

/** Says plainly that a section is not available yet and links back home. */
export function ComingSoon({ t, title, home }: { t: Translate; title: string; home: string }) {
  return (
    <section className="card empty" data-testid="coming-soon">
      <h1>{title}</h1>
      <p>{t("common.coming_soon_text")}</p>
      <a className="btn btn-secondary" href={home}>{t("common.back_to_dashboard")}</a>
    </section>
  );
}
