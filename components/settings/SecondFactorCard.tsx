/** The Settings card of the second factor: whether it is on, and the way to its page. */
import type { Translate } from "../../services/platform/i18n.ts";
import { Card, StatusBadge } from "../kit/mod.ts";

/** Props of {@link SecondFactorCard}. */
export interface SecondFactorCardProps {
  t: Translate;
  enabled: boolean;
  /** The second factor's page. */
  href: string;
}

/** The card. */
export function SecondFactorCard({ t, enabled, href }: SecondFactorCardProps) {
  return (
    <Card title={t("second_factor.title")} headingId="second-factor" data-testid="second-factor">
      <p>
        <StatusBadge tone={enabled ? "green" : "grey"}>
          {t(enabled ? "second_factor.status_on" : "second_factor.status_off")}
        </StatusBadge>
      </p>
      <p className="hint">{t("second_factor.card_hint")}</p>
      <a className="btn" href={href}>
        {t(enabled ? "second_factor.manage" : "second_factor.turn_on")}
      </a>
    </Card>
  );
}
