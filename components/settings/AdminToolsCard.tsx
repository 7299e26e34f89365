/** An admin's Settings card of the operator's tools: the audit log, API keys, the API's docs. */
import type { Translate } from "../../services/platform/i18n.ts";
import { Card } from "../kit/mod.ts";

/** The card. */
export function AdminToolsCard({ t }: { t: Translate }) {
  return (
    <Card title={t("api_keys.tools.title")} headingId="admin-tools" data-testid="admin-tools">
      <ul className="link-list">
        <li>
          <a href="/admin/audit">{t("audit.title")}</a>
        </li>
        <li>
          <a href="/admin/api-keys">{t("api_keys.title")}</a>
        </li>
        <li>
          <a href="/api/docs">{t("api_keys.tools.docs")}</a>
        </li>
      </ul>
    </Card>
  );
}
