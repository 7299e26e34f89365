/**
 * Report API (spec 001 section 7, "Reports"): `POST /reports/generate` and
 * `/api/reports/generate` with a JSON body → `application/pdf` as an attachment
 * (`services/reports/`). Signed-in users only; who may have which report is decided there.
 * Refusals are JSON `{message, errors}` in the asker's language (routes/_refusal.tsx): 400 bad
 * body, 403, 404.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { jsonInput } from "../_validate.ts";
import { REPORT_INPUT_ERRORS, reportRequestSchema } from "../../core/report_request.ts";
import { requireApiRole } from "../_session.ts";
import { generateReport, type ReportFile } from "../../services/reports/mod.ts";

/** The PDF answer of a finished report. */
export function pdfResponse(file: ReportFile): Response {
  return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${file.filename}"`,
      "content-length": String(file.bytes.byteLength),
      "cache-control": "private, no-store",
    },
  });
}

/** Routes of the report generation, mounted at /reports and at /api/reports. */
export function reportApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  // A bad request is answered with its first problem alone (no field named).
  const bad = REPORT_INPUT_ERRORS.invalidBody;
  const input = jsonInput(reportRequestSchema, { fields: "none", notJson: bad, notObject: bad });
  app.post("/generate", requireApiRole("admin", "customer", "user"), input, async (c) => {
    const req = c.req.valid("json");
    const language = req.language ?? c.var.lang;
    return pdfResponse(await generateReport(deps, c.var.user, { ...req, language }));
  });
  return app;
}
