/** The notice every payment screen shows while payments run in test mode. */
import type { Translate } from "../../services/platform/i18n.ts";

/** The notice. */
export function TestModeNotice({ t }: { t: Translate }) {
  return <p className="test-mode" role="note" data-testid="test-mode">{t("payments.test_mode")}</p>;
}
