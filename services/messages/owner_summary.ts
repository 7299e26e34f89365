/**
 * The owners' monthly payment summary (issue 28): on the first worker pass of a month, each
 * active owner with billed stations gets what their tenants were billed, paid and still owe,
 * for the latest period and in all (the figures of their Finanzas page, `ownerFinances`), read
 * when the message is sent. Once per owner and month, whichever process passes first.
 */
import type { Deps } from "../deps.ts";
import type { Formatter } from "../../core/format.ts";
import type { Translate } from "../platform/i18n.ts";
import { periodLabel } from "../../core/periods.ts";
import { firstTime, putOutboxEvent } from "../../db/outbox.ts";
import { listUsers, publicUser, type StoredUser } from "../../db/users.ts";
import { clockOf } from "../platform/clock.ts";
import { ownerFinances } from "../finances/mod.ts";

/** Queues this month's summaries not queued yet; answers how many it queued. */
export async function queueOwnerSummaries(deps: Deps): Promise<number> {
  const month = clockOf(deps).todayText().slice(0, 7);
  let n = 0;
  for (const owner of await listUsers(deps.kv, "customer")) {
    if (!owner.is_active) continue;
    const key = `owner_payments:${owner.id}:${month}`;
    if ((await ownerFinances(deps, publicUser(owner))).periods.length === 0) continue;
    if (!await firstTime(deps.kv, key)) continue;
    await putOutboxEvent(deps.kv, {
      key,
      kind: "owner_payments",
      to: [owner.id],
      params: { month },
    });
    n++;
  }
  return n;
}

/** The summary's values for `owner`, now; null when they have nothing billed. */
export async function ownerSummaryWords(
  deps: Deps,
  owner: StoredUser,
  t: Translate,
  f: Formatter,
): Promise<{ values: Record<string, string>; link: string } | null> {
  const fin = await ownerFinances(deps, publicUser(owner));
  const latest = fin.periods[0];
  if (!latest) return null;
  const money = (cents: number) => f.money(cents, fin.currency);
  return {
    values: {
      period: periodLabel(t, latest.period, true),
      billed: money(latest.billed),
      paid: money(latest.paid),
      pending: money(latest.pending),
      pending_total: money(fin.total.pending),
    },
    link: "/customer/finances",
  };
}
