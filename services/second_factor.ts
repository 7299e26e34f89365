/**
 * The second factor (TOTP, `core/totp.ts`): turning it on in Settings (a secret shown as a QR
 * code, confirmed with a first code; ten recovery codes shown once and stored as keyed
 * hashes), turning it off, the sign-in's challenge between the password and the code, and
 * checking a code (a TOTP step used once, or a recovery code used up).
 */
import { sign, verify } from "hono/jwt";
import { Secret } from "otpauth";
import QRCode from "qrcode";
import type { Deps } from "./deps.ts";
import { invalid } from "./refusal.ts";
import type { User } from "../core/types.ts";
import { codeKind, normalizeRecovery, RECOVERY_CODES, recoveryCodeOf } from "../core/totp.ts";
import { matchedStep, otpauthUri } from "./platform/totp.ts";
import {
  consumeRecovery,
  consumeStep,
  disableFactor,
  enableFactor,
  getFactor,
  getSetup,
  putSetup,
} from "../db/second_factor.ts";
import { auditStamp } from "./audit.ts";

/** How long the challenge between the password and the code is good for. */
const CHALLENGE_SECONDS = 5 * 60;
const ISSUER = "Portal";

/** Whether the account has its second factor on. */
export async function hasSecondFactor(deps: Deps, userId: number): Promise<boolean> {
  return (await getFactor(deps.kv, userId)) !== null;
}

/** What the setup page shows: the secret, as text and as a QR code (SVG markup). */
export interface FactorSetupView {
  secret: string;
  uri: string;
  qrSvg: string;
}

/** Draws a new secret for the account (kept 15 minutes until confirmed). */
export async function startSetup(deps: Deps, user: User): Promise<FactorSetupView> {
  const secret = new Secret({ size: 20 }).base32;
  await putSetup(deps.kv, user.id, { secret, created_at: deps.now() });
  return setupView(secret, user);
}

/** The setup being made (to draw the page again), or a new one. */
export async function currentSetup(deps: Deps, user: User): Promise<FactorSetupView> {
  const cur = await getSetup(deps.kv, user.id, deps.now());
  return cur ? setupView(cur.secret, user) : startSetup(deps, user);
}

async function setupView(secret: string, user: User): Promise<FactorSetupView> {
  const uri = otpauthUri(secret, user.email, ISSUER);
  const qrSvg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret, uri, qrSvg };
}

/** The keyed hash a recovery code is stored as (the token secret and the account as key). */
async function recoveryHash(deps: Deps, userId: number, code: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(`${deps.secret}:recovery`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${userId}:${code}`));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Turns the factor on when `code` is the set-up secret's code now; answers the ten recovery
 * codes (shown once). Refused (invalid, on `code`) otherwise.
 */
export async function confirmSetup(deps: Deps, user: User, code: string): Promise<string[]> {
  const now = deps.now();
  const setup = await getSetup(deps.kv, user.id, now);
  const step = setup ? matchedStep(setup.secret, code, now, null) : null;
  if (!setup || step === null) throw invalid({ code: "second_factor.errors.code_invalid" });
  const codes = Array.from(
    { length: RECOVERY_CODES },
    () => recoveryCodeOf(crypto.getRandomValues(new Uint8Array(8))),
  );
  const recovery = await Promise.all(codes.map((c) => recoveryHash(deps, user.id, c)));
  const audit = auditStamp(deps, "second_factor.enable", `user:${user.id}`);
  const factor = { secret: setup.secret, last_step: step, recovery, enabled_at: now };
  if (!await enableFactor(deps.kv, user.id, setup, factor, audit)) {
    throw invalid({ code: "second_factor.errors.code_invalid" });
  }
  return codes;
}

/** Turns the factor off when `code` is good now (a TOTP code or a recovery code). */
export async function turnOff(deps: Deps, user: User, code: string): Promise<void> {
  if (!await checkCode(deps, user.id, code)) {
    throw invalid({ code: "second_factor.errors.code_invalid" });
  }
  await disableFactor(
    deps.kv,
    user.id,
    auditStamp(deps, "second_factor.disable", `user:${user.id}`),
  );
}

/**
 * Whether `code` passes the account's second factor now: a TOTP code within a step of skew at
 * a step later than the last one used, or an unused recovery code; either is used up.
 */
export async function checkCode(deps: Deps, userId: number, code: string): Promise<boolean> {
  const factor = await getFactor(deps.kv, userId);
  if (!factor) return false;
  const text = code.replace(/\s/g, "");
  const kind = codeKind(text);
  if (kind === "totp") {
    const step = matchedStep(factor.secret, text, deps.now(), factor.last_step);
    return step !== null && await consumeStep(deps.kv, userId, step);
  }
  if (kind === "recovery") {
    const hash = await recoveryHash(deps, userId, normalizeRecovery(text)!);
    return await consumeRecovery(deps.kv, userId, hash);
  }
  return false;
}

/** How many recovery codes the account has left. */
export async function recoveryLeft(deps: Deps, userId: number): Promise<number> {
  return (await getFactor(deps.kv, userId))?.recovery.length ?? 0;
}

/**
 * The key challenges are signed with: the token secret with a purpose of its own, so a
 * challenge is never a session token (nor the reverse).
 */
const challengeKey = (deps: Deps) => `${deps.secret}:second-factor`;

/** The signed challenge the password step answers: good for 5 minutes, for this account. */
export function challengeFor(deps: Deps, user: User): Promise<string> {
  const now = Math.floor(deps.now() / 1000);
  return sign(
    { sub: String(user.id), purpose: "second_factor", iat: now, exp: now + CHALLENGE_SECONDS },
    challengeKey(deps),
    "HS256",
  );
}

/** The account a challenge was made for, or null when it is bad or expired. */
export async function challengeUser(deps: Deps, challenge: string): Promise<number | null> {
  try {
    // Time is checked against the injected clock, not hono's own Date.now().
    const claims = await verify(challenge, challengeKey(deps), {
      alg: "HS256",
      exp: false,
      iat: false,
      nbf: false,
    });
    const now = Math.floor(deps.now() / 1000);
    if (claims.purpose !== "second_factor" || typeof claims.exp !== "number") return null;
    if (claims.exp <= now) return null;
    const id = Number(claims.sub);
    return Number.isSafeInteger(id) ? id : null;
  } catch {
    return null;
  }
}
