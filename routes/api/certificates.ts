/**
 * Sensor certificates API (spec 000 section 7), admin only, mounted at /api/devices:
 * - `GET /api/devices/{sensorId}/certificate` → `{valid, message, health, details{expires_on,
 *   days_remaining, issuer, fingerprint}}` (the certificate is issued on first use)
 * - `GET /api/devices/{sensorId}/certificates/{ca|cert|key}` → `user_ca.pem`, `client.pem`,
 *   `client.key` as attachments
 * - `POST /api/devices/{sensorId}/certificate/renew` → a new certificate, its status
 * - `POST /api/devices/{sensorId}/certificate/verify` → `{valid, message, details}` after
 *   checking the stored certificate against the current CA, its key and its validity.
 * A bad id answers 400, an id that is no sensor 404, a failure of the CA or the store 503: the
 * service's refusals, answered in `routes/_refusal.tsx`.
 */
import { acting } from "../_audit.ts";
import { Hono } from "hono";
import type { Context } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { idParam } from "../_http.ts";
import { requireApiRole } from "../_session.ts";
import type { Translate } from "../../services/platform/i18n.ts";
import {
  type CertificateStatus,
  renewSensorCertificate,
  sensorCertificate,
  sensorCertificateStatus,
  withSensorCertificate,
} from "../../services/devices/mod.ts";
import { invalid, notFound } from "../../services/refusal.ts";

/** The three downloads: path segment → file name. */
export const CERTIFICATE_FILES = {
  ca: "user_ca.pem",
  cert: "client.pem",
  key: "client.key",
} as const;

/** A certificate download's kind. */
type CertificateFile = keyof typeof CERTIFICATE_FILES;

/** The message of a status, worded (the verify text names the end date). */
export function statusMessage(t: Translate, s: CertificateStatus, verified = false): string {
  if (!verified) return t(s.message);
  if (s.valid) return t("certificates.verify.ok", { date: s.details.expires_on.slice(0, 10) });
  return `${t("certificates.errors.validation_failed")}: ${t(s.message)}`;
}

/** The JSON of a status as the API answers it. */
function statusBody(t: Translate, s: CertificateStatus, verified = false) {
  return {
    valid: s.valid,
    message: statusMessage(t, s, verified),
    health: s.health,
    details: s.details,
  };
}

/** Routes of /api/devices/{sensorId}/certificate(s), mounted at /api/devices. */
export function certificateApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  const admin = requireApiRole("admin");

  /** Runs `work` for the sensor id of the path; a bad id is refused as invalid. */
  const forSensor = <T>(c: Context<UserEnv>, work: (id: number) => Promise<T>) => {
    const id = idParam(c.req.param("sensorId"));
    if (id === null) throw invalid({}, "certificates.errors.bad_id");
    return withSensorCertificate(deps, id, () => work(id));
  };

  app.get("/:sensorId/certificate", admin, async (c) => {
    const status = await forSensor(c, (id) => sensorCertificateStatus(deps, id));
    return c.json(statusBody(c.var.t, status));
  });

  app.post("/:sensorId/certificate/verify", admin, async (c) => {
    const status = await forSensor(c, (id) => sensorCertificateStatus(deps, id));
    return c.json(statusBody(c.var.t, status, true));
  });

  app.post("/:sensorId/certificate/renew", admin, async (c) => {
    const status = await forSensor(c, async (id) => {
      await renewSensorCertificate(acting(c, deps), id);
      return await sensorCertificateStatus(deps, id);
    });
    return c.json({
      ...statusBody(c.var.t, status),
      message: c.var.t("certificates.renew.api_done"),
    });
  });

  app.get("/:sensorId/certificates/:file", admin, async (c) => {
    const file = c.req.param("file");
    if (!Object.hasOwn(CERTIFICATE_FILES, file)) throw notFound("errors.not_found");
    const kind = file as CertificateFile;
    const body = await forSensor(c, async (id) => {
      const issued = await sensorCertificate(acting(c, deps), id);
      return kind === "ca" ? deps.pki.caPem : kind === "cert" ? issued.cert_pem : issued.key_pem;
    });
    return c.body(body, 200, {
      "content-type": "application/x-pem-file",
      "content-disposition": `attachment; filename="${CERTIFICATE_FILES[kind]}"`,
    });
  });
  return app;
}
