/**
 * A posted form that may carry one file (`multipart/form-data`), read within the route's limit
 * like every other body (`readBytes`: a body past it is answered 413 naming it) and parsed by
 * the platform's own multipart parser (`Response.formData`). A plain url-encoded form is read
 * too (no file). A body that cannot be parsed reads as an empty form, which the route's schema
 * then refuses.
 */
import type { Context } from "hono";
import { readBytes } from "./_http.ts";

/** The text fields (first value of each) and the file of `fileField`, if one was chosen. */
export interface Upload {
  fields: Record<string, string>;
  file: { name: string; bytes: Uint8Array<ArrayBuffer> } | null;
}

/** Reads the posted form with at most one file, in `fileField`. */
export async function readUpload(c: Context, limit: number, fileField: string): Promise<Upload> {
  const out: Upload = { fields: Object.create(null), file: null };
  const type = c.req.header("content-type") ?? "";
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(type)) return out;
  const bytes = await readBytes(c, limit);
  if (!bytes) return out;
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    return out;
  }
  for (const [k, v] of form) {
    if (typeof v === "string") {
      if (!(k in out.fields)) out.fields[k] = v;
    } else if (k === fileField && out.file === null && v.size > 0) {
      out.file = { name: v.name, bytes: new Uint8Array(await v.arrayBuffer()) };
    }
  }
  return out;
}
