/**
 * The bill notices (issue 9): `bill_created` when a bill is finalized with a total above 0,
 * `payment_overdue` once when it passes its due date, `payment_received` when it is paid. Each
 * is stored as a type plus parameters (unit and station by name, the period, the amount due in
 * cents and its currency, the due date) with a link to the bill, and worded in the reader's
 * language when it is read (services/notifications.ts). A run's notices are written once, when
 * its bills are; the commit that finalizes a bill marks its notice pending until it is
 * written, so a run killed in between loses none (the next run or sweep writes them).
 */
import type { Deps } from "../deps.ts";
import type { StoredDevice } from "../../core/devices.ts";
import { periodOfBill, type UnitBill } from "../../core/bill.ts";
import { amountDue } from "../../core/payment.ts";
import type { NotificationType } from "../../core/types.ts";
import type { Role } from "../../core/roles.ts";
import { createNotifications, type NewNotification } from "../../db/notifications.ts";
import { getUsers, type StoredUser } from "../../db/users.ts";
import { billsWithPendingNotices, clearPendingNotices, getUnitBill } from "../../db/bills.ts";
import { getDevice } from "../../db/devices.ts";

/** The bill notices. */
type BillNoticeType = Extract<
  NotificationType,
  "bill_created" | "payment_overdue" | "payment_received"
>;

/** Where a reader of a role acts on a bill. */
function billLink(role: Role, bill: UnitBill): string {
  const period = encodeURIComponent(periodOfBill(bill));
  if (role === "admin") {
    return `/admin/report/station/${bill.station_id}/unit/${
      encodeURIComponent(bill.unit_id)
    }?period=${period}`;
  }
  if (role === "customer") return `/customer/installations/${bill.station_id}`;
  return `/user/billing?period=${period}`;
}

/** The notice of `type` about `bill` for `reader`. */
export function billNotice(
  type: BillNoticeType,
  bill: UnitBill,
  station: Pick<StoredDevice, "name" | "config">,
  reader: Pick<StoredUser, "id" | "role">,
): NewNotification {
  const unit = station.config.station?.units.find((u) => u.id === bill.unit_id)?.name ??
    bill.unit_id;
  return {
    user_id: reader.id,
    type,
    priority: type === "payment_overdue" ? "high" : "medium",
    title: "",
    message: "",
    subject_id: `bill:${bill.id}`,
    params: {
      unit,
      station: station.name,
      period: periodOfBill(bill),
      amount: type === "bill_created" ? bill.total_cost : amountDue(bill),
      currency: bill.currency,
      due: bill.payment_due_date ?? "",
    },
    link: billLink(reader.role, bill),
  };
}

/**
 * The `bill_created` notices of a run (or a recalculation), written together: each finalized
 * bill with a total above 0 tells its unit's tenant. Tenants are read once.
 */
export class NoticeBatch {
  #queue: { bill: UnitBill; station: StoredDevice }[] = [];

  constructor(private readonly deps: Deps) {}

  /** Queues the notice of a finalized bill (drafts, zero totals and vacant units tell nobody). */
  add(bill: UnitBill, station: StoredDevice): void {
    if (bill.tenant_id !== null && bill.is_finalized && bill.total_cost > 0) {
      this.#queue.push({ bill, station });
    }
  }

  /** Writes what is queued and clears the bills' pending marks; answers why it failed, or null. */
  async flush(): Promise<string | null> {
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length === 0) return null;
    try {
      await this.#write(batch);
      return null;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  async #write(batch: { bill: UnitBill; station: StoredDevice }[]): Promise<void> {
    const { kv, now } = this.deps;
    const users = await getUsers(kv, [...new Set(batch.map((n) => n.bill.tenant_id!))]);
    const notes: NewNotification[] = [];
    for (const { bill, station } of batch) {
      const tenant = users.get(bill.tenant_id!);
      if (tenant) notes.push(billNotice("bill_created", bill, station, tenant));
    }
    if (notes.length > 0) await createNotifications(kv, notes, now());
    await clearPendingNotices(kv, batch.map((n) => n.bill.id));
  }
}

/**
 * Writes the `bill_created` notices that a run committed bills for but did not write (it was
 * killed in between): each bill's commit marked it pending. Answers how many were written.
 */
export async function writePendingNotices(deps: Deps): Promise<number> {
  let written = 0;
  for (;;) {
    const ids = await billsWithPendingNotices(deps.kv, 200);
    if (ids.length === 0) return written;
    const batch = new NoticeBatch(deps);
    const stations = new Map<number, StoredDevice | null>();
    const gone: number[] = [];
    for (const id of ids) {
      const bill = await getUnitBill(deps.kv, id);
      if (bill && !stations.has(bill.station_id)) {
        stations.set(bill.station_id, await getDevice(deps.kv, bill.station_id));
      }
      const station = bill ? stations.get(bill.station_id) : null;
      if (bill && station) batch.add(bill, station);
      else gone.push(id);
    }
    await clearPendingNotices(deps.kv, gone);
    const failed = await batch.flush();
    if (failed) throw new Error(`writing pending bill notices failed: ${failed}`);
    written += ids.length - gone.length;
  }
}
