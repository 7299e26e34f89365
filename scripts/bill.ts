/**
 * `deno task bill --zone ID --period P` (or `--all` for every zone), the billing run from the
 * command line: the same service as `POST /unified-billing/process` (`services/billing/`).
 *
 * Options: `--dry-run` computes and writes nothing; `--json` prints the result as JSON instead
 * of progress lines and a summary. Exits 0 when everything was billed, 1 when a station
 * failed, 2 for bad arguments or configuration.
 *
 * It opens the real stores from the configuration (the environment), as main.ts does.
 */
import { parseArgs } from "node:util";
import type { Deps } from "../services/deps.ts";
import { printErr, printOut, runWithStores } from "./_deps.ts";
import {
  type BillingProgress,
  type BillingResult,
  runBilling,
  runBillingAll,
} from "../services/billing/mod.ts";
import { Refusal } from "../services/refusal.ts";
import type { z } from "zod";
import { periodField, zoneIdField } from "../core/billing_input.ts";
import type { Period } from "../core/periods.ts";

const USAGE =
  "usage: deno task bill (--zone ID | --all) --period YYYY-MM[-MM] [--dry-run] [--json]";

/** Parsed command line. */
interface BillArgs {
  zone: number | null;
  all: boolean;
  period: Period;
  dryRun: boolean;
  json: boolean;
}

/** An argument parsed by its field of the billing run's input; a TypeError saying why not. */
function argOf<T>(field: z.ZodType<T>, value: string): T {
  const res = field.safeParse(value);
  if (res.success) return res.data;
  const issue = res.error.issues[0] as { message: string; params?: { detail?: string } };
  throw new TypeError(issue.params?.detail ?? issue.message);
}

/** Parses the arguments; throws TypeError with the usage for a bad command line. */
function parseBillArgs(args: string[]): BillArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        zone: { type: "string" },
        all: { type: "boolean", default: false },
        period: { type: "string" },
        "dry-run": { type: "boolean", default: false },
        json: { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new TypeError(`${(e as Error).message}\n${USAGE}`);
  }
  if (!values.period) throw new TypeError(`--period is required\n${USAGE}`);
  if (!values.all === !values.zone) {
    throw new TypeError(`give exactly one of --zone ID and --all\n${USAGE}`);
  }
  return {
    zone: values.zone === undefined ? null : argOf(zoneIdField, values.zone),
    all: values.all ?? false,
    period: argOf(periodField, values.period),
    dryRun: values["dry-run"] ?? false,
    json: values.json ?? false,
  };
}

/** Writes one line. */
type Print = (line: string) => void;

function summary(r: BillingResult): string[] {
  const lines = [
    `${r.dry_run ? "dry run (nothing written): " : ""}period ${r.period}, zones ${
      r.zone_ids.join(", ") || "none"
    }`,
    r.finalized
      ? "bills finalized (the period has ended): due in 10 business days, tenants notified"
      : "drafts (the period is still open): tenants neither see them nor are notified",
    `stations processed: ${r.stations_processed}`,
    `unit bills: ${r.bills_created} created, ${r.bills_updated} updated, ${r.bills_skipped} skipped (finalized), ${r.bills_estimated} estimated`,
    `customer bills: ${r.customer_bills_created} created, ${r.customer_bills_updated} updated, ${r.customer_bills_skipped} skipped (finalized)`,
    `failures: ${r.failures.length}`,
  ];
  for (const f of r.failures) {
    lines.push(
      `  zone ${f.zone_id} station ${f.station_id ?? "-"}${
        f.unit_id ? ` unit ${f.unit_id}` : ""
      }: ${f.reason}`,
    );
  }
  return lines;
}

/** Runs the command with `deps`; answers the exit code. */
export async function runBillCli(
  deps: Deps,
  args: string[],
  out: Print,
  err: Print,
): Promise<number> {
  let parsed: BillArgs;
  try {
    parsed = parseBillArgs(args);
  } catch (e) {
    err((e as Error).message);
    return 2;
  }
  const onProgress = parsed.json ? undefined : (p: BillingProgress) =>
    out(
      `[zone ${p.zone_id}] ${p.index}/${p.total} station ${p.station_id} ${p.station_name}: ${p.outcome}`,
    );
  const options = { dryRun: parsed.dryRun, onProgress, author: "deno task bill" };
  let result: BillingResult;
  try {
    result = parsed.all
      ? await runBillingAll(deps, parsed.period, options)
      : await runBilling(deps, parsed.zone!, parsed.period, options);
  } catch (e) {
    if (e instanceof Refusal) {
      const message = deps.i18n.t("en")(e.key);
      if (parsed.json) out(JSON.stringify({ error: message, kind: e.kind, detail: e.detail }));
      else err(e.detail ? `${message}: ${e.detail}` : message);
      return 2;
    }
    throw e;
  }
  if (parsed.json) out(JSON.stringify(result, null, 2));
  else for (const line of summary(result)) out(line);
  return result.failures.length > 0 ? 1 : 0;
}

function main(): Promise<number> {
  return runWithStores((deps) => runBillCli(deps, Deno.args, printOut, printErr));
}

if (import.meta.main) Deno.exit(await main());
