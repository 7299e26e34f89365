/** Request helpers shared by the routes: bodies read within their limit, bad-input answers. */
import type { Context } from "hono";
import { isIP } from "node:net";
import type { FieldErrors } from "../core/schemas.ts";
import type { AppEnv } from "./_deps.ts";
import { notFound } from "../services/refusal.ts";

/** Largest request body accepted by default, in bytes (a route may pass its own limit). */
const MAX_BODY = 64 * 1024;

/** Thrown when a body is longer than its route's limit; answered 413 naming the limit. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`);
    this.name = "BodyTooLarge";
  }
}

/** Thrown when a JSON route is sent another content type; answered 415. */
export class NotJson extends Error {
  constructor() {
    super("request body is not application/json");
    this.name = "NotJson";
  }
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/**
 * Reads a JSON body; `undefined` when it is missing or not JSON. Throws {@link NotJson} when a
 * body comes with another content type, {@link BodyTooLarge} past `limit` bytes.
 */
export async function readJson(c: Context, limit = MAX_BODY): Promise<unknown | undefined> {
  const type = c.req.header("content-type");
  if (!JSON_TYPE.test(type ?? "") && (type !== undefined || c.req.raw.body !== null)) {
    await c.req.raw.body?.cancel().catch(() => {});
    throw new NotJson();
  }
  const text = await readText(c, limit);
  if (text === undefined || text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The body as text, read as a stream and cut as soon as it passes `limit` bytes (declared
 * or not: chunked bodies are counted as they arrive). `undefined` when it cannot be read.
 */
async function readText(c: Context, limit: number): Promise<string | undefined> {
  const bytes = await readBytes(c, limit);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}

/** The body's bytes, read as {@link readText} reads it (throws {@link BodyTooLarge}). */
export async function readBytes(
  c: Context,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const body = c.req.raw.body;
  const declared = c.req.header("content-length");
  if (declared !== undefined && Number(declared) > limit) {
    await body?.cancel().catch(() => {});
    throw new BodyTooLarge(limit);
  }
  if (!body) return new Uint8Array();
  if (body.locked || c.req.raw.bodyUsed) return undefined;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw new BodyTooLarge(limit);
      }
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof BodyTooLarge) throw e;
    return undefined;
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

/** A posted form: each name's value, or its values when the name is repeated. */
export type Form = Record<string, string | string[]>;

/**
 * Reads an urlencoded form as a plain object; repeated names become arrays. Throws
 * {@link BodyTooLarge} past `limit` bytes.
 */
export async function readForm(c: Context, limit = MAX_BODY): Promise<Form> {
  // No prototype: a field named `constructor`, `toString` or `__proto__` is a field like any other.
  const out: Form = Object.create(null);
  const text = await readText(c, limit);
  if (text === undefined) return out;
  const type = c.req.header("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) return out;
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** A single form value as a string ("" when missing or repeated). */
export const formString = (form: Form, k: string): string =>
  typeof form[k] === "string" ? form[k] as string : "";

/** A form value as a list (checkboxes, repeated rows). */
export function formList(form: Form, k: string): string[] {
  const v = form[k];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/**
 * The rows of a posted table whose columns are the fields `{prefix}_{key}`: the i-th value of
 * each column together, as many rows as the first column has (at most `max`), "" where a
 * column is shorter.
 */
export function formRows<K extends string>(
  form: Form,
  prefix: string,
  keys: readonly K[],
  max: number,
): Record<K, string>[] {
  const cols = keys.map((k) => formList(form, `${prefix}_${k}`));
  return cols[0].slice(0, max).map((_, i) =>
    Object.fromEntries(keys.map((k, j) => [k, cols[j][i] ?? ""])) as Record<K, string>
  );
}

/** Translates a field-errors map of locale keys. */
export function translateErrors<E extends AppEnv>(c: Context<E>, errors: FieldErrors): FieldErrors {
  const t = c.var.t;
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, t(v)]));
}

/** A 400 answer with a message and the translated field-errors map. */
export function badRequest<E extends AppEnv>(c: Context<E>, errors: FieldErrors, message?: string) {
  return c.json(
    { message: message ?? c.var.t("validation.failed"), errors: translateErrors(c, errors) },
    400,
  );
}

/** A 400 answer for a body that is not JSON. */
export function badJson<E extends AppEnv>(c: Context<E>) {
  return c.json({ message: c.var.t("validation.bad_json"), errors: {} }, 400);
}

/** Parses a positive integer path parameter; null when it is not one. */
export function idParam(value: string | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  const n = Number(value);
  return n > 0 && Number.isSafeInteger(n) ? n : null;
}

/** The path's `id` as a positive integer; a not-found refusal with `notFoundKey` when it is not one. */
export function pathId(c: Context, notFoundKey: string): number {
  const id = idParam(c.req.param("id"));
  if (id === null) throw notFound(notFoundKey);
  return id;
}

/**
 * The client's address: the connection's, or, when the connection comes from one of the
 * `trusted` proxies (`TRUST_PROXY`), the last address in `X-Forwarded-For` that is not one of
 * them (a client can forge the entries before it, never the ones its proxies add).
 */
export function clientAddress<E extends AppEnv>(
  c: Context<E>,
  trusted: readonly string[],
): string {
  const info = (c.env as { remoteAddr?: { hostname?: string } } | undefined)?.remoteAddr;
  const peer = info?.hostname ?? "local";
  if (!trusted.includes(peer)) return peer;
  const hops = (c.req.header("x-forwarded-for") ?? "").split(",").map((h) => h.trim());
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isIP(hops[i])) return peer;
    if (!trusted.includes(hops[i])) return hops[i];
  }
  return peer;
}
