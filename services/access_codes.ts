/** Access code use cases: generate, create, delete (with the spec's delete rule). */
import { auditStamp } from "./audit.ts";
import type { Deps } from "./deps.ts";
import { invalid, notFound } from "./refusal.ts";
import { ACCESS_CODE_LENGTH, accessCodeFromBytes } from "../core/access_code.ts";
import { type AccessCode, canDeleteAccessCode } from "../core/types.ts";
import {
  codeExists,
  CodeTakenError,
  createAccessCode,
  deleteAccessCode,
  getAccessCode,
  listAccessCodes,
  listAccessCodesAfter,
} from "../db/access_codes.ts";
import type { z } from "zod";
import { type ListQuery, matches, type Page, paginate, sortRows } from "../core/paging.ts";
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

/**
 * A page of the access codes in id order after the code with id `after` (null: from the
 * first), and whether more follow; every remaining one without a limit.
 */
export async function codesAfter(
  deps: Deps,
  after: number | null,
  limit: number | undefined,
): Promise<{ codes: AccessCode[]; more: boolean }> {
  if (limit === undefined) {
    const codes = (await listAccessCodes(deps.kv)).filter((c) => after === null || c.id > after);
    return { codes, more: false };
  }
  return await listAccessCodesAfter(deps.kv, after, limit);
}

/**
 * The sort keys of the access codes list: the default is newest first; `created` sorts by
 * creation in the asked direction.
 */
export const CODE_SORTS = ["recent", "code", "role", "status", "created"] as const;
/** A sort key of the access codes list. */
export type CodeSort = typeof CODE_SORTS[number];

/** One page of the access codes, searched by code, notes and the e-mail that used it. */
export async function pageCodes(deps: Deps, query: ListQuery<CodeSort>): Promise<Page<AccessCode>> {
  let codes = (await allCodes(deps)).filter((c) =>
    matches(query.q, [c.code, c.notes, c.used_by_email, String(c.id)])
  );
  if (query.sort !== "recent") {
    const key: Record<CodeSort, (c: AccessCode) => string | number> = {
      recent: (c) => -c.id,
      code: (c) => c.code,
      role: (c) => c.role,
      status: (c) => (c.is_used ? 1 : 0),
      created: (c) => c.id,
    };
    codes = sortRows(codes, key[query.sort], query.dir, (c) => c.id);
  }
  return paginate(codes, query);
}

/**
 * Creates an access code; customers get stations, tenants units. Refused (invalid `code`)
 * when the code exists.
 */
export async function createCode(
  deps: Deps,
  input: z.output<typeof accessCodeSchema>,
): Promise<AccessCode> {
  const assignments = input.role === "customer"
    ? { stations: [...new Set(input.assignments.stations)], units: [] }
    : { stations: [], units: [...new Set(input.assignments.units)] };
  try {
    const audit = auditStamp(deps, "access_code.create", "access_code:new");
    return await createAccessCode(deps.kv, { ...input, assignments }, deps.now(), audit);
  } catch (e) {
    if (e instanceof CodeTakenError) throw invalid({ code: "validation.access_code_exists" });
    throw e;
  }
}

/**
 * Deletes a code when the rule allows: unused, or used with no user id; refused when it
 * does not exist or is in use.
 */
export async function removeCode(deps: Deps, id: number): Promise<void> {
  const code = await getAccessCode(deps.kv, id);
  if (!code) throw notFound("errors.access_code_not_found");
  if (!canDeleteAccessCode(code)) throw invalid({}, "errors.access_code_in_use");
  await deleteAccessCode(deps.kv, id, auditStamp(deps, "access_code.delete", `access_code:${id}`));
}

/** The access code with `id`, or null. */
export async function findCode(deps: Deps, id: number): Promise<AccessCode | null> {
  return await getAccessCode(deps.kv, id);
}
