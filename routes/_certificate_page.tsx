/**
 * The certificate part of the sensor page without JavaScript: Renew and Verify Certificates
 * are form posts that redirect back to the page (`done=certificate_renewed`,
 * `certificate_error=confirm_required`, `verified=ok` or the problem), and the page words
 * the result again from the query and the stored certificate.
 */
import type { Deps } from "./_deps.ts";
import type { Translate } from "../services/platform/i18n.ts";
import {
  type CertificateStatus,
  renewSensorCertificate,
  sensorCertificateStatus,
} from "../services/devices/mod.ts";
import type { CertificateView } from "../components/devices/sensor/CertificatePanel.tsx";
import { statusMessage } from "./api/certificates.ts";
import { clockOf } from "../services/platform/clock.ts";

const VERIFY_CODES = new Set(["ok", "not_signed", "key_mismatch", "expired", "not_yet_valid"]);

const sensorPage = (stationId: number, sensorId: number) =>
  `/admin/devices/station/${stationId}/sensor/${sensorId}/data`;

/** The sensor page's address with `params`, scrolled to the certificate part. */
function back(stationId: number, sensorId: number, params: Record<string, string>): string {
  return `${sensorPage(stationId, sensorId)}?${new URLSearchParams(params)}#certificate`;
}

async function status(deps: Deps, sensorId: number): Promise<CertificateStatus | null> {
  try {
    return await sensorCertificateStatus(deps, sensorId);
  } catch (e) {
    deps.log.log("error", "sensor page: certificate status failed", {
      sensorId,
      error: String(e),
    });
    return null;
  }
}

/** Renews the sensor's certificate when `confirmed`; answers where to go back to. */
export async function renewAndReturn(
  deps: Deps,
  stationId: number,
  sensorId: number,
  confirmed: boolean,
): Promise<string> {
  if (!confirmed) return back(stationId, sensorId, { certificate_error: "confirm_required" });
  try {
    await renewSensorCertificate(deps, sensorId);
  } catch (e) {
    deps.log.log("error", "sensor page: renew failed", { sensorId, error: String(e) });
    return back(stationId, sensorId, { certificate_error: "unavailable" });
  }
  return back(stationId, sensorId, { done: "certificate_renewed" });
}

/** Verifies the sensor's stored certificate; answers where to go back to. */
export async function verifyAndReturn(
  deps: Deps,
  stationId: number,
  sensorId: number,
): Promise<string> {
  const s = await status(deps, sensorId);
  if (!s) return back(stationId, sensorId, { certificate_error: "unavailable" });
  return back(stationId, sensorId, { verified: s.valid ? "ok" : s.problems[0] });
}

/** The certificate part of the sensor page, with the outcome named by the query. */
export async function certificateView(
  deps: Deps,
  t: Translate,
  stationId: number,
  sensorId: number,
  query: (name: string) => string | undefined,
): Promise<CertificateView> {
  const s = await status(deps, sensorId);
  const base = `/admin/devices/station/${stationId}/sensor/${sensorId}/certificate`;
  const code = query("verified");
  let verified: CertificateView["verified"] = null;
  if (code && VERIFY_CODES.has(code) && s) {
    // The page words the check as it stands now; the code only says a check was asked for.
    verified = { ok: s.valid, message: statusMessage(t, s, true) };
  }
  const error = query("certificate_error");
  const notice = query("done") === "certificate_renewed"
    ? { ok: true, message: t("certificates.renew.done") }
    : error === "confirm_required"
    ? { ok: false, message: t("certificates.renew.confirm_required") }
    : error === "unavailable"
    ? { ok: false, message: t("certificates.errors.unavailable") }
    : null;
  const clock = clockOf(deps);
  return {
    downloadBase: `/api/devices/${sensorId}/certificates`,
    renewAction: `${base}/renew`,
    verifyAction: `${base}/verify`,
    status: s && {
      valid: s.valid,
      health: s.health,
      message: statusMessage(t, s),
      expiresOn: clock.localDateTime(Date.parse(s.details.expires_on)),
      daysRemaining: s.details.days_remaining,
      issuer: s.details.issuer,
      fingerprint: s.details.fingerprint,
    },
    verified,
    notice,
  };
}
