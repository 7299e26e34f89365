/**
 * What the live device islands share: the status words and colours, the worded last seen
 * and the status card (dot, word, last seen).
 */
import { timeAgo } from "../core/time_ago.ts";

/** A device's status as the islands show it. */
export type Status = "online" | "offline" | "error" | "alarm" | "unknown";

/** The colour of each status's dot. */
export const COLOURS: Record<Status, string> = {
  online: "green",
  error: "red",
  offline: "red",
  alarm: "yellow",
  unknown: "grey",
};

/** A status from an API answer; anything unknown is `unknown`. */
export const asStatus = (s: unknown): Status =>
  s === "online" || s === "offline" || s === "error" || s === "alarm" ? s : "unknown";

/** Texts of the status card, translated on the server. */
export interface StatusTexts {
  status: string;
  statuses: Record<Status, string>;
  /** "Never seen". */
  never: string;
  /** "Last seen: {time}". */
  lastSeen: string;
  justNow: string;
  /** "{n} min ago", "{n} h ago", "{n} d ago". */
  minutes: string;
  hours: string;
  days: string;
}

/** The worded last seen of a device (epoch ms or null). */
export function lastSeenText(ms: number | null, texts: StatusTexts): string {
  if (ms === null) return texts.never;
  const a = timeAgo(ms, Date.now());
  const time = a.unit === "just_now" ? texts.justNow : texts[a.unit].replace("{n}", String(a.n));
  return texts.lastSeen.replace("{time}", time);
}

/** The status card: dot and word, last seen below. */
export function StatusCard({ testId, status, seen, texts }: {
  testId: string;
  status: Status;
  seen: string;
  texts: StatusTexts;
}) {
  return (
    <div className="stat" data-testid={testId} data-status={status}>
      <div className="stat-label">{texts.status}</div>
      <div className="stat-value stat-status">
        <span className={`status-dot dot-${COLOURS[status]}`} aria-hidden="true" />
        <span aria-live="polite">{texts.statuses[status]}</span>
      </div>
      <div className="stat-sub">{seen}</div>
    </div>
  );
}
