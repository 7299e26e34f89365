/**
 * The conformance suite against a real QuestDB, run only when QUESTDB_URL is set (for
 * example `QUESTDB_URL=http://127.0.0.1:9000 deno test -A db/telemetry/`). QuestDB cannot
 * run on the build machines, so without QUESTDB_URL every test of the suite is registered
 * as ignored (and shows as such in the summary). The suite writes to its own table,
 * `conformance_readings`, with serials unique to each run.
 */
import { runConformance } from "./conformance.ts";
import { openQuestDbStore } from "./questdb.ts";

function questDbUrl(): string | undefined {
  const permission = Deno.permissions.querySync({ name: "env", variable: "QUESTDB_URL" });
  return permission.state === "granted" ? Deno.env.get("QUESTDB_URL") || undefined : undefined;
}

const url = questDbUrl();
runConformance(
  "questdb",
  () => openQuestDbStore(url!, { table: "conformance_readings" }),
  { ignore: !url },
);
