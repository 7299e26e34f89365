/** Access code use cases: generate, create, delete (with the spec's delete rule). */
import type { Deps } from "./deps.ts";
import { ACCESS_CODE_LENGTH, accessCodeFromBytes } from "../core/access_code.ts";
import { type AccessCode, canDeleteAccessCode } from "../core/types.ts";
import {
  codeExists,
  CodeTakenError,
  createAccessCode,
  deleteAccessCode,
  getAccessCode,
  listAccessCodes,
} from "../db/access_codes.ts";
import type { z } from "zod";
import type { accessCodeSchema } from "../core/schemas.ts";

/** A fresh random code not yet used by any access code. */
export async function generateCode(deps: Deps): Promise<string> {
  for (;;) {
    const code = accessCodeFromBytes(crypto.getRandomValues(new Uint8Array(ACCESS_CODE_LENGTH)));
    if (!(await codeExists(deps.kv, code))) return code;
  }
}

/** Every access code, newest first. */
export async function allCodes(deps: Deps): Promise<AccessCode[]> {
  return (await listAccessCodes(deps.kv)).reverse();
}

/** Outcome of creating a code. */
export type CreateCodeResult = { ok: true; code: AccessCode } | {
  ok: false;
  field: string;
  key: string;
};

/** Creates an access code; customers get stations, tenants units. */
export async function createCode(
  deps: Deps,
  input: z.output<typeof accessCodeSchema>,
): Promise<CreateCodeResult> {
  const assignments = input.role === "customer"
    ? { stations: [...new Set(input.assignments.stations)], units: [] }
    : { stations: [], units: [...new Set(input.assignments.units)] };
  try {
    const code = await createAccessCode(deps.kv, { ...input, assignments }, deps.now());
    return { ok: true, code };
  } catch (e) {
    if (e instanceof CodeTakenError) {
      return { ok: false, field: "code", key: "validation.access_code_exists" };
    }
    throw e;
  }
}

/** Deletes a code when the rule allows: unused, or used with no user id. */
export async function removeCode(
  deps: Deps,
  id: number,
): Promise<{ ok: true } | { ok: false; status: 400 | 404; key: string }> {
  const code = await getAccessCode(deps.kv, id);
  if (!code) return { ok: false, status: 404, key: "errors.access_code_not_found" };
  if (!canDeleteAccessCode(code)) {
    return { ok: false, status: 400, key: "errors.access_code_in_use" };
  }
  await deleteAccessCode(deps.kv, id);
  return { ok: true };
}

/** The access code with `id`, or null. */
export async function findCode(deps: Deps, id: number): Promise<AccessCode | null> {
  return await getAccessCode(deps.kv, id);
}
