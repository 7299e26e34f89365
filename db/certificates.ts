/**
 * Sensors' client certificates in Deno KV. The private key is stored sealed (AES-GCM, see
 * `services/devices/certificates.ts`); this module stores and reads records as given.
 *
 * Key layout:
 * - `["sensor_certificates", sensorId]` → {@link StoredCertificate}
 */
import type { AuditStamp } from "../core/audit.ts";
import { stageAudit } from "./audit.ts";

/** A sensor's certificate as stored: the certificate in clear, the key sealed. */
export interface StoredCertificate {
  cert_pem: string;
  /** base64 of IV (12 bytes) followed by the AES-GCM ciphertext of the PKCS#8 PEM. */
  key_sealed: string;
  not_before: number;
  not_after: number;
  fingerprint: string;
  issuer: string;
  serial: string;
  /** Epoch ms when it was issued. */
  issued_at: number;
}

const certificateKey = (sensorId: number) => ["sensor_certificates", sensorId];

/** The stored certificate of a sensor with its versionstamp, or null. */
export function getCertificateEntry(
  kv: Deno.Kv,
  sensorId: number,
): Promise<Deno.KvEntryMaybe<StoredCertificate>> {
  return kv.get<StoredCertificate>(certificateKey(sensorId));
}

/** Stores a sensor's first certificate; false when one was stored meanwhile. */
export async function insertCertificate(
  kv: Deno.Kv,
  sensorId: number,
  record: StoredCertificate,
  audit?: AuditStamp,
): Promise<boolean> {
  const key = certificateKey(sensorId);
  const op = kv.atomic().check({ key, versionstamp: null }).set(key, record);
  if (audit) stageAudit(op, audit, null, record);
  return (await op.commit()).ok;
}

/** Stores a sensor's certificate, replacing any stored one. */
export async function putCertificate(
  kv: Deno.Kv,
  sensorId: number,
  record: StoredCertificate,
  audit?: AuditStamp,
): Promise<void> {
  for (;;) {
    const cur = await kv.get<StoredCertificate>(certificateKey(sensorId));
    const op = kv.atomic().check(cur).set(certificateKey(sensorId), record);
    if (audit) stageAudit(op, audit, cur.value, record);
    if ((await op.commit()).ok) return;
  }
}

/** Deletes a sensor's certificate (nothing happens when it has none). */
export async function deleteCertificate(kv: Deno.Kv, sensorId: number): Promise<void> {
  await kv.delete(certificateKey(sensorId));
}

/** The stored certificates of `sensorIds` (those that have one), read in batches of 10. */
export async function getCertificates(
  kv: Deno.Kv,
  sensorIds: readonly number[],
): Promise<Map<number, StoredCertificate>> {
  const found = new Map<number, StoredCertificate>();
  if (sensorIds.length > 200) {
    // Many sensors: one scan of the certificates (there are at most as many as sensors).
    const wanted = new Set(sensorIds);
    for await (const e of kv.list<StoredCertificate>({ prefix: ["sensor_certificates"] })) {
      if (wanted.has(e.key[1] as number)) found.set(e.key[1] as number, e.value);
    }
    return found;
  }
  for (let i = 0; i < sensorIds.length; i += 10) {
    const chunk = sensorIds.slice(i, i + 10);
    const entries = await kv.getMany<StoredCertificate[]>(chunk.map(certificateKey));
    entries.forEach((e, j) => {
      if (e.value) found.set(chunk[j], e.value);
    });
  }
  return found;
}
