/**
 * The certificate part of the 'MQTT Connection Issue' panel: the three downloads (links; with
 * JavaScript a failed one is an alert on the list, 'Failed to download {type} certificate'), the certificate status with its health colour and text, Renew (a form post with
 * a confirmation box) and Verify Certificates (a form post whose result comes back on the
 * page), then the slot for the connection test. Works without JavaScript.
 */
import type { ReactNode } from "react";
import type { Translate } from "../../../services/platform/i18n.ts";
import { Island } from "../../render.tsx";
import ReportDownload from "../../../islands/ReportDownload.tsx";

/** The files of the three downloads. */
const FILE_NAMES = { ca: "user_ca.pem", cert: "client.pem", key: "client.key" } as const;

/** The certificate status, worded for the page. */
interface CertificateStatusView {
  valid: boolean;
  health: "green" | "yellow" | "red";
  /** The health or problem text. */
  message: string;
  /** Local date the certificate ends. */
  expiresOn: string;
  daysRemaining: number;
  issuer: string;
  fingerprint: string;
}

/** What the certificate part shows. */
export interface CertificateView {
  /** `/api/devices/{id}/certificates` (the files are `/ca`, `/cert`, `/key`). */
  downloadBase: string;
  /** Where the Renew and Verify forms post. */
  renewAction: string;
  verifyAction: string;
  /** Null when the status cannot be read now. */
  status: CertificateStatusView | null;
  /** The result of Verify Certificates after its form post, or null. */
  verified: { ok: boolean; message: string } | null;
  /** A notice after Renew (done or refused), or null. */
  notice: { ok: boolean; message: string } | null;
}

/** Props of {@link CertificatePanel}. */
interface CertificatePanelProps {
  t: Translate;
  view: CertificateView;
  /** The Test MQTT Connection button and its result, rendered after Verify. */
  testConnection?: ReactNode;
}

/** The downloads, status, Renew and Verify. */
export function CertificatePanel({ t, view: v, testConnection }: CertificatePanelProps) {
  const C = (k: string, p?: Record<string, string | number>) => t(`certificates.${k}`, p);
  const s = v.status;
  const files: [keyof typeof FILE_NAMES, string][] = [
    ["ca", C("downloads.ca")],
    ["cert", C("downloads.cert")],
    ["key", C("downloads.key")],
  ];
  return (
    <div className="certificate-panel" id="certificate" data-testid="certificate-panel">
      {v.notice && (
        <div
          className={`alert ${v.notice.ok ? "alert-success" : "alert-error"}`}
          role="status"
          data-testid="certificate-notice"
        >
          {v.notice.message}
        </div>
      )}
      <div className="certificate-grid">
        <div data-download-alerts>
          <h3>{C("downloads.title")}</h3>
          <ul className="certificate-downloads">
            {files.map(([file, label]) => (
              <li key={file}>
                <Island
                  of={ReportDownload}
                  props={{
                    href: `${v.downloadBase}/${file}`,
                    filename: FILE_NAMES[file],
                    label: `⬇ ${label}`,
                    busyLabel: `⬇ ${label}`,
                    // A failed download is worded on the list (spec 000's error texts).
                    errorText: t("devices.sensor_data.alerts.download_failed", {
                      type: file,
                      status: "{status}",
                    }),
                    className: "btn btn-secondary btn-sm",
                    testId: `download-${file}`,
                    mode: "download",
                  }}
                />
              </li>
            ))}
          </ul>
          <p className="muted small">{C("downloads.hint")}</p>
        </div>
        <div>
          <h3>{C("status.title")}</h3>
          {s
            ? (
              <div
                className={`certificate-status health-${s.health}`}
                data-testid="certificate-status"
                data-health={s.health}
              >
                <p className="certificate-health">
                  <span className="health-dot" aria-hidden="true" />
                  <strong>{s.valid ? C("status.valid") : C("status.invalid")}</strong>
                  {" — "}
                  <span data-testid="certificate-message">{s.message}</span>
                </p>
                <dl className="info-list">
                  <dt>{C("status.expires_on")}</dt>
                  <dd data-testid="certificate-expires">{s.expiresOn}</dd>
                  <dt>{C("status.days_remaining")}</dt>
                  <dd data-testid="certificate-days">
                    {C("status.days", { days: s.daysRemaining })}
                  </dd>
                  <dt>{C("status.issuer")}</dt>
                  <dd>{s.issuer}</dd>
                  <dt>{C("status.fingerprint")}</dt>
                  <dd className="mono fingerprint" data-testid="certificate-fingerprint">
                    {s.fingerprint}
                  </dd>
                </dl>
              </div>
            )
            : <p className="alert alert-error">{C("status.unavailable")}</p>}
        </div>
      </div>
      <div className="certificate-actions">
        <form method="post" action={v.verifyAction} data-testid="verify-form">
          <button type="submit" className="btn btn-secondary">{C("verify.button")}</button>
        </form>
        {v.verified && (
          <div
            className={`alert ${v.verified.ok ? "alert-success" : "alert-error"}`}
            role="status"
            data-testid="verify-result"
          >
            <strong>{C("verify.result_title")}:</strong> {v.verified.message}
          </div>
        )}
        <form
          method="post"
          action={v.renewAction}
          className="certificate-renew"
          data-testid="renew-form"
        >
          <p className="small">{C("renew.confirm")}</p>
          <label className="check">
            <input type="checkbox" name="confirm" value="yes" required /> {C("renew.confirm_label")}
          </label>
          <button type="submit" className="btn">{C("renew.button")}</button>
        </form>
        {/* test-mqtt */}
        {testConnection && <div className="certificate-test-slot">{testConnection}</div>}
      </div>
    </div>
  );
}
