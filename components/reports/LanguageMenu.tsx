/** A download button that opens a small menu of report languages (a <details>, no JavaScript). */
import type { Translate } from "../../services/platform/i18n.ts";

/** Props of {@link LanguageMenu}. */
interface LanguageMenuProps {
  t: Translate;
  label: string;
  /** The link of each language. */
  href: (language: string) => string;
  languages: readonly ("en" | "es" | "de")[];
  small?: boolean;
}

const NAMES = { en: "english", es: "spanish", de: "german" } as const;

/** The menu. */
export function LanguageMenu({ t, label, href, languages, small }: LanguageMenuProps) {
  return (
    <details className="lang-menu">
      <summary className={`btn ${small ? "btn-sm " : ""}btn-secondary`}>{label}</summary>
      <ul role="list" aria-label={t("reports.unit_report.language_dialog.title")}>
        {languages.map((l) => (
          <li key={l}>
            <a href={href(l)} data-language={l}>
              {t(`reports.unit_report.language_dialog.${NAMES[l]}`)}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
