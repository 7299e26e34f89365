/**
 * The `bill_created` notifications of a billing run (services/billing.ts): each new bill tells
 * its unit's tenant, in the tenant's language, written in batches while the run goes on.
 */
import type { Deps } from "./deps.ts";
import type { StoredDevice } from "../db/devices.ts";
import type { StoredUnitBill } from "../db/bills.ts";
import { createNotifications, type NewNotification } from "../db/notifications.ts";
import { type StoredUser, userKey } from "../db/users.ts";

/**
 * The `bill_created` notifications of a run, written in batches: each new bill tells its
 * unit's tenant, in the tenant's language. Tenants are read once per run.
 */
export class NoticeBatch {
  #queue: { bill: StoredUnitBill; station: StoredDevice }[] = [];
  #users = new Map<number, StoredUser | null>();
  #writing: Promise<string | null> = Promise.resolve(null);

  constructor(private readonly deps: Deps, private readonly period: string) {}

  /** Whether enough are queued to write them. */
  get full(): boolean {
    return this.#queue.length >= 200;
  }

  /** Queues the notification of a new bill (bills of units without a tenant tell nobody). */
  add(bill: StoredUnitBill, station: StoredDevice): void {
    if (bill.tenant_id !== null) this.#queue.push({ bill, station });
  }

  /** Writes what is queued (one batch at a time); answers why it failed, or null. */
  flush(): Promise<string | null> {
    const batch = this.#queue;
    this.#queue = [];
    this.#writing = this.#writing.then((failed) =>
      batch.length === 0 ? failed : this.#write(batch).then(
        () => failed,
        (e) => failed ?? (e instanceof Error ? e.message : String(e)),
      )
    );
    return this.#writing;
  }

  async #write(batch: { bill: StoredUnitBill; station: StoredDevice }[]): Promise<void> {
    const { kv, i18n, now } = this.deps;
    const missing = [...new Set(batch.map((n) => n.bill.tenant_id!))].filter((id) =>
      !this.#users.has(id)
    );
    for (let i = 0; i < missing.length; i += 10) {
      const chunk = missing.slice(i, i + 10);
      const users = await kv.getMany<StoredUser[]>(chunk.map(userKey));
      chunk.forEach((id, j) => this.#users.set(id, users[j].value));
    }
    const notes: NewNotification[] = [];
    for (const { bill, station } of batch) {
      const tenant = this.#users.get(bill.tenant_id!);
      if (!tenant) continue;
      const t = i18n.t(tenant.language ?? "es");
      const period = this.period;
      notes.push({
        user_id: tenant.id,
        type: "bill_created",
        priority: "medium",
        title: t("billing.notifications.bill_created_title", { period }),
        message: t("billing.notifications.bill_created_message", {
          period,
          station: station.name,
          unit: bill.unit_id,
          amount: (bill.total_cost / 100).toFixed(2),
          currency: bill.currency,
          due: bill.payment_due_date,
        }),
        subject_id: `bill:${bill.id}`,
      });
    }
    if (notes.length > 0) await createNotifications(kv, notes, now());
  }
}
