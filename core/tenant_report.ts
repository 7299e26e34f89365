/**
 * A tenant's report downloads as the routes validate their query (spec 001 section 7,
 * "Reports"; issue 26): one bill's report `?station=&unit=&period=&language=` and a period's
 * reports in one file `?period=&language=`. Each problem is a locale key by its field; whose
 * bills they are is the service's to decide.
 */
import { z } from "zod";
import { isPeriod } from "./periods.ts";
import { LANGUAGES } from "./roles.ts";
import { REPORT_INPUT_ERRORS as E } from "./report_request.ts";

const period = z.string({ error: E.invalidPeriod }).refine(isPeriod, E.invalidPeriod);
const language = z.enum(LANGUAGES, { error: E.invalidLanguage }).optional();

/** One bill's report: its station, unit and period (`YYYY-MM` or `YYYY-MM-MM`), a language. */
export const tenantReportQuerySchema = z.object({
  station: z.coerce.number({ error: E.invalidStation }).int(E.invalidStation)
    .positive(E.invalidStation),
  unit: z.string({ error: E.invalidUnit }).regex(/^[A-Za-z0-9_-]{1,40}$/, E.invalidUnit),
  period,
  language,
});

/** A validated report query (no language: the asker's). */
export type TenantReportQuery = z.output<typeof tenantReportQuerySchema>;

/** Every report of a period in one file (the language first: a bad one is the error named). */
export const periodReportQuerySchema = z.object({ language, period });
