/**
 * What the owner's billing page and the admin's station page share of the CFE bill form
 * (issue 34): reading the posted form with its PDF, validating it at the edge
 * (`core/cfe_bill.ts`'s schema, through the one hook), saving it, and the PDF's download.
 */
import type { Context } from "hono";
import { z } from "zod";
import type { Deps, UserEnv } from "./_deps.ts";
import { formChecked } from "./_validate.ts";
import { readUpload } from "./_upload.ts";
import { attempt, Refusal } from "./_refusal.tsx";
import { translateErrors } from "./_http.ts";
import { CFE_PDF_MAX_BYTES, cfeBillInputSchema } from "../core/cfe_bill.ts";
import { isPeriod } from "../core/periods.ts";
import { cfeBillPdf, saveCfeBill } from "../services/owner/cfe_bills.ts";
import type { CfeBillFormValues } from "../components/owner/CfeBill.tsx";

/** Largest body of the form: the PDF and the text fields around it. */
const FORM_LIMIT = CFE_PDF_MAX_BYTES + 64 * 1024;

/** The station named by the form. */
const stationField = z.object({
  station: z.coerce.number({ error: "validation.invalid" }).int("validation.invalid")
    .positive("validation.invalid"),
});

/** The posted form's outcome: saved (its period), or refused with the values to show again. */
export type CfeBillPosted =
  | { ok: true; station: number; period: string }
  | {
    ok: false;
    values: CfeBillFormValues;
    errors: Record<string, string>;
    error: string;
    status: 400 | 404;
  };

/**
 * Reads, checks and saves the posted CFE bill of `station` (the form's `station` field when
 * null). Bad input changes nothing.
 */
export async function postCfeBill(
  c: Context<UserEnv>,
  deps: Deps,
  station: number | null,
): Promise<CfeBillPosted> {
  const { fields, file } = await readUpload(c, FORM_LIMIT, "pdf");
  const values: CfeBillFormValues = {
    station: fields.station ?? String(station ?? ""),
    period: fields.period ?? "",
    kwh: fields.kwh ?? "",
    kw: fields.kw ?? "",
    amount: fields.amount ?? "",
  };
  const refused = (r: Refusal) => ({
    ok: false as const,
    values,
    errors: translateErrors(c, r.fields),
    error: c.var.t(r.key, r.params),
    status: r.kind === "not_found" ? 404 as const : 400 as const,
  });
  const which = station === null ? formChecked(stationField, fields) : { station };
  if (which instanceof Refusal) return refused(which);
  const input = formChecked(cfeBillInputSchema, fields);
  if (input instanceof Refusal) return refused(input);
  const res = await attempt(saveCfeBill(deps, c.var.user, which.station, input, file));
  if (res instanceof Refusal) {
    if (res.kind !== "invalid" && res.kind !== "not_found") throw res;
    return refused(res);
  }
  return { ok: true, station: which.station, period: input.period };
}

/** The PDF of the station's CFE bill of `period` (404 when none). */
export async function cfeBillPdfResponse(
  c: Context<UserEnv>,
  deps: Deps,
  station: number,
  period: string,
): Promise<Response> {
  if (!isPeriod(period)) return c.json({ message: c.var.t("cfe_bill.errors.period") }, 400);
  const pdf = await cfeBillPdf(deps, c.var.user, station, period);
  const name = `cfe_${station}_${period}.pdf`;
  return new Response(pdf.bytes, {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${name}"`,
      "x-content-type-options": "nosniff",
    },
  });
}
