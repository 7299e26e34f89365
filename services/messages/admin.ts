/** The admin's view of the outbox (`/admin/messages`, issue 28). */
import type { Deps } from "../deps.ts";
import { notFound } from "../refusal.ts";
import { type Delivery, recentDeliveries, resendDelivery } from "../../db/outbox.ts";
import { getUsers } from "../../db/users.ts";
import { outboxFiles } from "./mail.ts";

/** A delivery as listed, with its recipient's e-mail. */
export interface DeliveryRow extends Delivery {
  to: string;
}

/** What the page shows. */
export interface MessagesPage {
  rows: DeliveryRow[];
  /** The `.eml` files when mails are written to the outbox folder, else null. */
  files: { name: string; size: number; modified: number }[] | null;
}

/** The latest 200 deliveries, and the outbox folder's files when mails go there. */
export async function messagesPage(deps: Deps, folder: string | null): Promise<MessagesPage> {
  const list = await recentDeliveries(deps.kv, 200);
  const users = await getUsers(deps.kv, list.map((d) => d.user_id));
  const rows = list.map((d) => ({
    ...d,
    to: String(d.params.address ?? users.get(d.user_id)?.email ?? `#${d.user_id}`),
  }));
  return { rows, files: folder ? (await outboxFiles(folder)).slice(0, 200) : null };
}

/** Queues a failed or skipped delivery again. */
export async function sendAgain(deps: Deps, id: string): Promise<void> {
  if (!await resendDelivery(deps.kv, id, deps.now())) throw notFound("messages.admin.not_found");
}
