/** "Time ago" as the spec counts it: minutes under an hour, hours under a day, then days. */

/** A unit and count for a time-ago label. */
interface TimeAgo {
  unit: "just_now" | "minutes" | "hours" | "days";
  n: number;
}

/** How long before `now` the instant `then` was (both epoch ms). */
export function timeAgo(then: number, now: number): TimeAgo {
  const minutes = Math.floor(Math.max(0, now - then) / 60_000);
  if (minutes < 1) return { unit: "just_now", n: 0 };
  if (minutes < 60) return { unit: "minutes", n: minutes };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { unit: "hours", n: hours };
  return { unit: "days", n: Math.floor(hours / 24) };
}

/** The badge text of an unread count: nothing at 0, "99+" above 99. */
export function badgeText(count: number): string {
  if (count <= 0) return "";
  return count > 99 ? "99+" : String(count);
}
