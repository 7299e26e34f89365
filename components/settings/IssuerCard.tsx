/**
 * The admin's Settings card of the invoices' issuer (issue 31): the operator's Facturapi
 * organization (legal name, RFC, fiscal regime, ZIP), read-only; it is changed in Facturapi's
 * dashboard. Says when Facturapi did not answer, or runs in test mode.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { IssuerView } from "../../services/invoices/mod.ts";
import { Card, Facts } from "../kit/mod.ts";

/** The card. */
export function IssuerCard({ t, issuer }: { t: Translate; issuer: IssuerView }) {
  const I = (k: string, p?: Record<string, string>) => t(`fiscal.issuer.${k}`, p);
  const F = (k: string) => t(`fiscal.fields.${k}`);
  return (
    <Card title={I("title")} headingId="issuer" data-testid="issuer">
      {issuer.state === "ok" && (
        <>
          <Facts
            className="facts"
            rows={[
              [F("legal_name"), issuer.legal_name],
              [F("rfc"), issuer.rfc],
              [F("tax_system"), `${issuer.regime} · ${t(`fiscal.regimes.${issuer.regime}`)}`],
              [F("zip"), issuer.zip],
            ]}
          />
          {issuer.test && <p className="hint" data-testid="issuer-test">{I("test")}</p>}
          <p className="hint">{I("hint")}</p>
        </>
      )}
      {issuer.state === "unavailable" && (
        <p className="alert alert-error" role="alert">
          {I("unavailable", { error: issuer.error })}
        </p>
      )}
      {issuer.state === "off" && <p className="hint">{I("off")}</p>}
    </Card>
  );
}
