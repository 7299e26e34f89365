/**
 * Report API (spec 001 section 7, "Reports"): `POST /reports/generate` and
 * `/api/reports/generate` with a JSON body → `application/pdf` as an attachment
 * (`services/reports/`). Signed-in users only; who may have which report is decided there.
 * Refusals are JSON `{message, errors}` in the asker's language (routes/_refusal.tsx): 400 bad
 * body, 403, 404.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { readJson } from "../_http.ts";
import { requireApiRole } from "../_session.ts";
import {
  checkReportRequest,
  generateReport,
  REPORT_ERRORS,
  type ReportFile,
} from "../../services/reports/mod.ts";
import { invalid } from "../../services/refusal.ts";

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
  app.post("/generate", requireApiRole("admin", "customer", "user"), async (c) => {
    const body = await readJson(c);
    if (body === undefined) throw invalid({}, REPORT_ERRORS.invalidBody);
    const req = checkReportRequest(body, c.var.lang);
    return pdfResponse(await generateReport(deps, c.var.user, req));
  });
  return app;
}
