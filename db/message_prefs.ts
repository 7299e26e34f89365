/**
 * Each account's choice of messages (issue 28).
 *
 * Key layout: `["message_prefs", userId]` → {@link MessagePrefs} (absent: the defaults).
 */
import type { MessagePrefs } from "../core/messages.ts";

/** An account's choices, or null when it never chose. */
export async function getMessagePrefs(kv: Deno.Kv, userId: number): Promise<MessagePrefs | null> {
  return (await kv.get<MessagePrefs>(["message_prefs", userId])).value;
}

/** Saves an account's choices. */
export async function putMessagePrefs(
  kv: Deno.Kv,
  userId: number,
  prefs: MessagePrefs,
): Promise<void> {
  await kv.set(["message_prefs", userId], prefs);
}
