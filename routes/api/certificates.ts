/**
 * Sensor certificates API (spec 000 section 7), admin only:
 * - `GET /api/devices/{sensorId}/certificate` → `{valid, message, health, details{expires_on,
 *   days_remaining, issuer, fingerprint}}` (the certificate is issued on first use)
 * - `GET /api/devices/{sensorId}/certificates/{ca|cert|key}` → `user_ca.pem`, `client.pem`,
 *   `client.key` as attachments
 * - `POST /api/devices/{sensorId}/certificate/renew` → a new certificate, its status
 * - `POST /api/devices/{sensorId}/certificate/verify` → `{valid, message, details}` after
 *   checking the stored certificate against the current CA, its key and its validity.
 * A bad id answers 400, an id that is no sensor 404; a failure of the CA or the store 503.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv, Deps } from "../_deps.ts";
import { idParam } from "../_http.ts";
import { requireApi } from "../_session.ts";
import type { Translate } from "../../services/platform/i18n.ts";
import {
  type CertificateStatus,
  isSensor,
  NotASensorError,
  renewSensorCertificate,
  sensorCertificate,
  sensorCertificateStatus,
} from "../../services/devices/mod.ts";

type Ctx = Context<AppEnv>;

/** The three downloads: path segment → file name. */
export const CERTIFICATE_FILES = {
  ca: "user_ca.pem",
  cert: "client.pem",
  key: "client.key",
} as const;

/** A certificate download's kind. */
export type CertificateFile = keyof typeof CERTIFICATE_FILES;

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

/** Routes under /api/devices/{sensorId}/certificate(s). */
export function certificateApiRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const admin = requireApi("admin");

  /** Runs `work` for a valid sensor id; answers 400, 404 or 503 otherwise. */
  const forSensor = async (c: Ctx, work: (id: number) => Promise<Response>) => {
    const t = c.var.t;
    const id = idParam(c.req.param("sensorId"));
    if (id === null) return c.json({ message: t("certificates.errors.bad_id") }, 400);
    try {
      if (!(await isSensor(deps, id))) {
        return c.json({ message: t("certificates.errors.sensor_not_found") }, 404);
      }
      return await work(id);
    } catch (e) {
      if (e instanceof NotASensorError) {
        return c.json({ message: t("certificates.errors.sensor_not_found") }, 404);
      }
      deps.log.log("error", "sensor certificate failed", { sensorId: id, error: String(e) });
      return c.json({ message: t("certificates.errors.unavailable") }, 503);
    }
  };

  app.get(
    "/api/devices/:sensorId/certificate",
    admin,
    (c) =>
      forSensor(
        c,
        async (id) => c.json(statusBody(c.var.t, await sensorCertificateStatus(deps, id))),
      ),
  );

  app.post(
    "/api/devices/:sensorId/certificate/verify",
    admin,
    (c) =>
      forSensor(
        c,
        async (id) => c.json(statusBody(c.var.t, await sensorCertificateStatus(deps, id), true)),
      ),
  );

  app.post("/api/devices/:sensorId/certificate/renew", admin, (c) =>
    forSensor(c, async (id) => {
      await renewSensorCertificate(deps, id);
      const status = await sensorCertificateStatus(deps, id);
      return c.json({
        ...statusBody(c.var.t, status),
        message: c.var.t("certificates.renew.api_done"),
      });
    }));

  app.get("/api/devices/:sensorId/certificates/:file", admin, (c) => {
    const file = c.req.param("file");
    if (!Object.hasOwn(CERTIFICATE_FILES, file)) {
      return c.json({ message: c.var.t("errors.not_found") }, 404);
    }
    return forSensor(c, async (id) => {
      const kind = file as CertificateFile;
      const issued = await sensorCertificate(deps, id);
      const body = kind === "ca"
        ? deps.pki.caPem
        : kind === "cert"
        ? issued.cert_pem
        : issued.key_pem;
      return c.body(body, 200, {
        "content-type": "application/x-pem-file",
        "content-disposition": `attachment; filename="${CERTIFICATE_FILES[kind]}"`,
      });
    });
  });
  return app;
}
