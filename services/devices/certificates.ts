/**
 * Sensors' client certificates: issued by the portal's CA on first use, stored per sensor
 * with the private key sealed (AES-GCM under a key derived from the portal's secret),
 * replaced on renewal and forgotten when the sensor is deleted.
 */
import { auditStamp } from "../audit.ts";
import type { Deps } from "../deps.ts";
import type { IssuedCertificate } from "../platform/pki.ts";
import { SENSOR_CERT_DAYS } from "../../core/certificates.ts";
import {
  deleteCertificate,
  getCertificateEntry,
  insertCertificate,
  putCertificate,
  type StoredCertificate,
} from "../../db/certificates.ts";
import { getDevice } from "../../db/devices.ts";
import { encodeBase64 } from "../platform/_base64.ts";
import { sealingKey } from "../platform/_sealing_key.ts";
import { notFound, Refusal, unavailable } from "../refusal.ts";

/** The refusal of a certificate call for an id that names no sensor. */
const NOT_A_SENSOR = "certificates.errors.sensor_not_found";

/** The AES-GCM key that seals certificate keys, derived from the secret. */
const certificateKey = (secret: string) =>
  sealingKey(secret, "energy-portal", "sensor-certificate-keys");

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const bin = atob(text);
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

/** Seals a private key PEM for storage: base64 of IV followed by the ciphertext. */
export async function sealKey(secret: string, keyPem: string, sensorId: number): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(`sensor:${sensorId}`) },
      await certificateKey(secret),
      new TextEncoder().encode(keyPem),
    ),
  );
  const out = new Uint8Array(iv.length + data.length);
  out.set(iv);
  out.set(data, iv.length);
  return encodeBase64(out);
}

/** Opens a key sealed by {@link sealKey}; throws when it was sealed under another secret. */
async function openSealedKey(
  secret: string,
  sealed: string,
  sensorId: number,
): Promise<string> {
  const bytes = decodeBase64(sealed);
  const plain = await crypto.subtle.decrypt(
    {
      name: "AES-GCM",
      iv: bytes.subarray(0, 12),
      additionalData: new TextEncoder().encode(`sensor:${sensorId}`),
    },
    await certificateKey(secret),
    bytes.subarray(12),
  );
  return new TextDecoder().decode(plain);
}

async function commonNameOf(deps: Deps, sensorId: number): Promise<string> {
  const device = await getDevice(deps.kv, sensorId);
  if (!device || device.type !== "sensor") {
    throw notFound(NOT_A_SENSOR);
  }
  return device.serial_number.toLowerCase().slice(0, 64);
}

async function issue(deps: Deps, sensorId: number): Promise<{
  issued: IssuedCertificate;
  record: StoredCertificate;
}> {
  const issued = await deps.pki.issueClient(await commonNameOf(deps, sensorId), SENSOR_CERT_DAYS);
  const { key_pem: _key, ...rest } = issued;
  const record: StoredCertificate = {
    ...rest,
    key_sealed: await sealKey(deps.secret, issued.key_pem, sensorId),
    issued_at: deps.now(),
  };
  return { issued, record };
}

async function unseal(deps: Deps, sensorId: number, r: StoredCertificate) {
  const { key_sealed, issued_at: _at, ...rest } = r;
  return { ...rest, key_pem: await openSealedKey(deps.secret, key_sealed, sensorId) };
}

/** The stored certificate of a sensor, or null when none was issued yet (nothing is issued). */
export async function storedSensorCertificate(
  deps: Deps,
  sensorId: number,
): Promise<IssuedCertificate | null> {
  const entry = await getCertificateEntry(deps.kv, sensorId);
  return entry.value ? await unseal(deps, sensorId, entry.value) : null;
}

/** The sensor's current client certificate, issued and stored on first use. */
export async function sensorCertificate(deps: Deps, sensorId: number): Promise<IssuedCertificate> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const entry = await getCertificateEntry(deps.kv, sensorId);
    if (entry.value) {
      try {
        return await unseal(deps, sensorId, entry.value);
      } catch {
        // Sealed under another secret: the key is lost to the portal, so a new one is issued.
        deps.log.log("warn", "sensor certificate key cannot be opened; issuing a new one", {
          sensorId,
        });
        return await renewSensorCertificate(deps, sensorId);
      }
    }
    const { issued, record } = await issue(deps, sensorId);
    const audit = auditStamp(deps, "certificate.issue", `device:${sensorId}`);
    if (await insertCertificate(deps.kv, sensorId, record, audit)) return issued;
  }
  throw new Error(`the certificate of sensor ${sensorId} could not be stored`);
}

/** Issues a new certificate for the sensor, replacing the stored one. */
export async function renewSensorCertificate(
  deps: Deps,
  sensorId: number,
): Promise<IssuedCertificate> {
  const { issued, record } = await issue(deps, sensorId);
  const audit = auditStamp(deps, "certificate.issue", `device:${sensorId}`);
  await putCertificate(deps.kv, sensorId, record, audit);
  return issued;
}

/** Forgets the sensor's certificate (called when the sensor is deleted). */
export async function forgetSensorCertificate(deps: Deps, sensorId: number): Promise<void> {
  await deleteCertificate(deps.kv, sensorId);
}

/** Whether `id` is a sensor (the certificate calls answer 404 otherwise). */
async function isSensor(deps: Deps, id: number): Promise<boolean> {
  return (await getDevice(deps.kv, id))?.type === "sensor";
}

/**
 * Runs a certificate call for the sensor `id`: refused as not found when the id names no
 * sensor, as unavailable (and logged) when the CA or the store fails.
 */
export async function withSensorCertificate<T>(
  deps: Deps,
  id: number,
  work: () => Promise<T>,
): Promise<T> {
  try {
    if (!(await isSensor(deps, id))) throw notFound(NOT_A_SENSOR);
    return await work();
  } catch (e) {
    if (e instanceof Refusal) throw e;
    deps.log.log("error", "sensor certificate failed", { sensorId: id, error: String(e) });
    throw unavailable("certificates.errors.unavailable");
  }
}
