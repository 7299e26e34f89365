/**
 * Alert rules (issue 30) in Deno KV.
 *
 * Key layout:
 * - `["alert_rules", id]` → {@link AlertRule}
 * - `["alert_rules_revision"]` → Deno.KvU64, moved by every change: an evaluator keeping the
 *   rules in memory reads this one key to know whether to read them again
 */
import type { AlertRule } from "../core/alert_rules.ts";

const ruleKey = (id: string) => ["alert_rules", id];
/** The rules' revision. */
export const ALERT_RULES_REVISION: Deno.KvKey = ["alert_rules_revision"];
const REVISION = ALERT_RULES_REVISION;

/** Every rule, oldest id first. */
export async function listAlertRules(kv: Deno.Kv): Promise<AlertRule[]> {
  const out: AlertRule[] = [];
  for await (const e of kv.list<AlertRule>({ prefix: ["alert_rules"] })) out.push(e.value);
  return out;
}

/** A rule by id. */
export async function getAlertRule(kv: Deno.Kv, id: string): Promise<AlertRule | null> {
  return (await kv.get<AlertRule>(ruleKey(id))).value;
}

/** Writes a rule (new or changed) and moves the revision. */
export async function putAlertRule(kv: Deno.Kv, rule: AlertRule): Promise<void> {
  await kv.atomic().set(ruleKey(rule.id), rule).sum(REVISION, 1n).commit();
}

/** Deletes a rule; false when there was none. */
export async function deleteAlertRule(kv: Deno.Kv, id: string): Promise<boolean> {
  const cur = await kv.get(ruleKey(id));
  if (!cur.value) return false;
  return (await kv.atomic().check(cur).delete(ruleKey(id)).sum(REVISION, 1n).commit()).ok;
}

/** The rules' revision (0 before any change). */
export async function alertRulesRevision(kv: Deno.Kv): Promise<bigint> {
  return (await kv.get<Deno.KvU64>(REVISION)).value?.value ?? 0n;
}
