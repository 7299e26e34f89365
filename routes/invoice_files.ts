/**
 * An invoice's PDF or XML (issue 31): `GET <area>/invoices/file?key=&format=pdf|xml` for an
 * admin (any invoice), a tenant or an owner (their own named invoice); 404 otherwise.
 */
import { type Context, Hono } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { attempt, Refusal, refusalResponse } from "./_refusal.tsx";
import { invoiceFile } from "../services/invoices/mod.ts";
import { notFound } from "../services/refusal.ts";
import { z } from "zod";
import { pageText, queryInput } from "./_validate.ts";

/** The query of a download: the invoice's key and the format (checked where they are used). */
export const invoiceFileQuery = queryInput(z.object({ key: pageText, format: pageText }));

/** Answers the file the query names (behind {@link invoiceFileQuery}). */
export async function invoiceDownload(
  c: Context<UserEnv, string, { out: { query: { key?: string; format?: string } } }>,
  deps: Deps,
): Promise<Response> {
  const q = c.req.valid("query");
  const key = (q.key ?? "").slice(0, 200);
  const format = q.format;
  if (format !== "pdf" && format !== "xml") {
    return refusalResponse(c, deps, notFound("invoices.errors.not_found"));
  }
  const got = await attempt(invoiceFile(deps, c.var.user, key, format));
  if (got instanceof Refusal) return refusalResponse(c, deps, got);
  return new Response(got.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      "content-type": got.type,
      "content-disposition": `attachment; filename="${got.filename}"`,
    },
  });
}

/** The download route of a tenant's or owner's area. */
export function invoiceFileRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.get("/invoices/file", invoiceFileQuery, (c) => invoiceDownload(c, deps));
  return app;
}
