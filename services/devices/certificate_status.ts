/**
 * What the sensor page and the certificate API say about a sensor's certificate: expiry,
 * days remaining, issuer, fingerprint and health, and the checks of Verify Certificates
 * (signed by the portal's current CA, key matches the certificate, within its validity).
 */
import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import type { Deps } from "../deps.ts";
import type { IssuedCertificate } from "../platform/pki.ts";
import { sensorCertificate } from "./certificates.ts";
import {
  type CertificateHealth,
  certificateHealth,
  daysRemaining,
  healthMessageKey,
} from "../../core/certificates.ts";

/** Why a certificate failed verification (a locale key under `certificates.verify`). */
type VerifyProblem = "not_signed" | "key_mismatch" | "expired" | "not_yet_valid";

/** The status of a sensor's certificate; `message` is a locale key. */
export interface CertificateStatus {
  valid: boolean;
  /** Locale key of the message shown with the status. */
  message: string;
  health: CertificateHealth;
  details: {
    /** ISO 8601 time the certificate ends. */
    expires_on: string;
    days_remaining: number;
    issuer: string;
    fingerprint: string;
  };
  problems: VerifyProblem[];
}

const spki = (key: ReturnType<typeof createPublicKey>) =>
  key.export({ type: "spki", format: "der" }).toString("base64");

/** Checks a certificate and key against the CA certificate at time `now`. */
function verifyCertificate(
  caPem: string,
  issued: Pick<IssuedCertificate, "cert_pem" | "key_pem">,
  now: number,
): VerifyProblem[] {
  const problems: VerifyProblem[] = [];
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(issued.cert_pem);
  } catch {
    return ["not_signed"];
  }
  const ca = new X509Certificate(caPem);
  if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey)) problems.push("not_signed");
  try {
    if (spki(createPublicKey(createPrivateKey(issued.key_pem))) !== spki(cert.publicKey)) {
      problems.push("key_mismatch");
    }
  } catch {
    problems.push("key_mismatch");
  }
  if (now >= new Date(cert.validTo).getTime()) problems.push("expired");
  else if (now < new Date(cert.validFrom).getTime()) problems.push("not_yet_valid");
  return problems;
}

/** The status of the sensor's certificate (issued on first use), fully verified. */
export async function sensorCertificateStatus(
  deps: Deps,
  sensorId: number,
): Promise<CertificateStatus> {
  const issued = await sensorCertificate(deps, sensorId);
  const now = deps.now();
  const problems = verifyCertificate(deps.pki.caPem, issued, now);
  return {
    valid: problems.length === 0,
    message: problems.length === 0
      ? healthMessageKey(issued.not_after, now)
      : `certificates.verify.${problems[0]}`,
    health: problems.length === 0 ? certificateHealth(issued.not_after, now) : "red",
    details: {
      expires_on: new Date(issued.not_after).toISOString(),
      days_remaining: daysRemaining(issued.not_after, now),
      issuer: issued.issuer,
      fingerprint: issued.fingerprint,
    },
    problems,
  };
}
