/**
 * The header's notification bell: unread count (polled every 30 s) and a panel with the
 * active, resolved or all notifications, where they can be resolved. Without JavaScript
 * the bell is a link to the notifications page.
 */
import { usePoll } from "./use_poll.ts";
import { useCallback, useEffect, useRef, useState } from "react";
import { badgeText, timeAgo } from "../core/time_ago.ts";

/** Texts of the bell, translated on the server. */
export interface BellTexts {
  notifications: string;
  active: string;
  resolved: string;
  all: string;
  resolve: string;
  stillOffline: string;
  empty: string;
  close: string;
  viewAll: string;
  minutesAgo: string;
  hoursAgo: string;
  daysAgo: string;
  justNow: string;
  resolveFailed: string;
}

interface Item {
  id: number;
  type: string;
  priority: string;
  title: string;
  message: string;
  link?: string | null;
  created_at: number;
  status: "active" | "resolved";
}

type Filter = "active" | "resolved" | "all";

/** Polling interval of the unread count. */
export const COUNT_POLL_MS = 30_000;

/** Props of the bell. */
export interface NotificationBellProps {
  unread: number;
  texts: BellTexts;
}

/** The bell. */
export default function NotificationBell({ unread, texts }: NotificationBellProps) {
  const [count, setCount] = useState(unread);
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState<Filter>("active");
  const [items, setItems] = useState<Item[] | null>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  // A failed count is kept as it was: the next poll tries again.
  const { refresh: refreshCount } = usePoll(async (signal) => {
    const res = await fetch("/api/notifications/count", { credentials: "same-origin", signal });
    if (res.ok) setCount((await res.json()).total_count ?? 0);
  }, { intervalMs: COUNT_POLL_MS });

  const load = useCallback(async (f: Filter) => {
    try {
      const res = await fetch(`/api/notifications?status=${f}&limit=50`, {
        credentials: "same-origin",
      });
      setItems(res.ok ? (await res.json()).notifications ?? [] : []);
    } catch {
      setItems([]);
    }
  }, []);

  useEffect(() => {
    if (open) load(filter);
  }, [open, filter, load]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    const onClick = (e: MouseEvent) => {
      if (panelRef.current && !panelRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("mousedown", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("mousedown", onClick);
    };
  }, [open]);

  const resolve = async (id: number) => {
    const res = await fetch(`/api/notifications/${id}/resolve`, {
      method: "POST",
      credentials: "same-origin",
    });
    if (res.status === 400) {
      const body = await res.json().catch(() => ({}));
      alert(body.message ?? texts.resolveFailed);
      return;
    }
    if (!res.ok) return;
    await Promise.all([load(filter), refreshCount()]);
  };

  const ago = (ms: number) => {
    const a = timeAgo(ms, Date.now());
    if (a.unit === "just_now") return texts.justNow;
    const tpl = a.unit === "minutes"
      ? texts.minutesAgo
      : a.unit === "hours"
      ? texts.hoursAgo
      : texts.daysAgo;
    return tpl.replace("{n}", String(a.n));
  };

  const badge = badgeText(count);
  return (
    <div ref={panelRef} style={{ position: "static" }}>
      <a
        className="icon-btn"
        href="/notifications"
        title={texts.notifications}
        aria-expanded={open}
        data-testid="notification-bell"
        onClick={(e) => {
          e.preventDefault();
          setOpen(!open);
        }}
      >
        <svg
          className="icon"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
        >
          <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
          <path d="M13.73 21a2 2 0 0 1-3.46 0" />
        </svg>
        <span className="visually-hidden">{texts.notifications}</span>
        {badge && <span className="badge-count" data-testid="notification-count">{badge}</span>}
      </a>
      {open && (
        <div className="notif-panel" role="dialog" aria-label={texts.notifications}>
          <div className="modal-head">
            <h2>{texts.notifications}</h2>
            <button type="button" className="icon-btn" onClick={() => setOpen(false)}>
              <span aria-hidden="true">✕</span>
              <span className="visually-hidden">{texts.close}</span>
            </button>
          </div>
          <div className="notif-filters" role="group">
            {(["active", "resolved", "all"] as const).map((f) => (
              <button
                key={f}
                type="button"
                className={`btn btn-sm ${filter === f ? "" : "btn-ghost"}`}
                aria-pressed={filter === f}
                onClick={() => setFilter(f)}
              >
                {texts[f]}
              </button>
            ))}
          </div>
          <ul className="notif-list">
            {items && items.length === 0 && <li className="empty">{texts.empty}</li>}
            {items?.map((n) => (
              <li key={n.id} className="notif-item">
                <div className="title">{n.link ? <a href={n.link}>{n.title}</a> : n.title}</div>
                <div>{n.message}</div>
                <div className="notif-meta">
                  <span>{ago(n.created_at)}</span>
                  {n.status === "active" && (n.type === "sensor_offline"
                    ? <span className="badge badge-yellow">{texts.stillOffline}</span>
                    : (
                      <button
                        type="button"
                        className="btn btn-sm btn-secondary"
                        onClick={() => resolve(n.id)}
                      >
                        {texts.resolve}
                      </button>
                    ))}
                </div>
              </li>
            ))}
          </ul>
          <div className="modal-foot">
            <a href="/notifications">{texts.viewAll}</a>
          </div>
        </div>
      )}
    </div>
  );
}
