/**
 * Browser side of the notification bell (plain script, no React): the bell toggles the
 * panel instead of following its link; the unread count is polled every 30 s (paused while
 * the tab is hidden); opening the panel or choosing a filter loads that list; an active
 * notice can be resolved from it; Escape, the close button or a click outside closes it. The
 * reader's open alerts (issue 30) count in the badge and, when there are any, the panel lists the
 * newest of them above the notifications, each linked to where it is read.
 */
import { revalidating } from "./revalidate.ts";
import { badgeText, timeAgo } from "../core/time_ago.ts";
import type { NotificationBellProps } from "./NotificationBell.tsx";
import { browserEnv, startPoll } from "./poll.ts";
import { logFailedFetch } from "./client_log.ts";

/** Polling interval of the unread count. */
const COUNT_POLL_MS = 30_000;

interface Item {
  id: number;
  type: string;
  title: string;
  message: string;
  link?: string | null;
  created_at: number;
  status: "active" | "resolved";
}

/** An open alert as `GET /api/alerts` answers it (what the panel shows of it). */
interface AlertItem {
  id: string;
  template: string;
  subject: string;
  station_id: number;
  state: string;
  opened_at: number;
}

/** Open alerts listed in the panel at most (the section's link leads to all of them). */
const ALERTS_SHOWN = 5;

/** A link of a notice, when it is a path on this site (anything else is shown as text). */
function safeLink(link: string | null | undefined): string | null {
  return typeof link === "string" && /^\/(?![\/\\])/.test(link) ? link : null;
}

const h = (tag: string, className = "", text = "") => {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text) el.textContent = text;
  return el;
};

/** Adds the bell's behaviour to its server-rendered element. */
export function mount(root: HTMLElement, { unread, alerts, texts }: NotificationBellProps) {
  const bell = root.querySelector<HTMLAnchorElement>("[data-testid=notification-bell]")!;
  const panel = root.querySelector<HTMLElement>(".notif-panel")!;
  const list = panel.querySelector<HTMLUListElement>("ul[aria-live]")!;
  const filters = panel.querySelectorAll<HTMLButtonElement>("[data-filter]");
  const alertSection = panel.querySelector<HTMLElement>("[data-testid=bell-alerts]");
  let openAlerts = alerts?.count ?? 0;
  let filter = "active";
  let open = false;
  let loads = 0;

  bell.setAttribute("role", "button");
  bell.setAttribute("aria-haspopup", "dialog");
  bell.setAttribute("aria-controls", panel.id);
  bell.setAttribute("aria-expanded", "false");

  const showCount = (n: number) => {
    const text = badgeText(n);
    let badge = bell.querySelector<HTMLElement>(".badge-count");
    if (!text) return badge?.remove();
    if (!badge) {
      badge = h("span", "badge-count");
      badge.dataset.testid = "notification-count";
      bell.append(badge);
    }
    badge.textContent = text;
  };
  const showAlerts = (n: number) => {
    openAlerts = n;
    if (!alertSection) return;
    alertSection.hidden = n === 0;
    alertSection.querySelector("[data-testid=bell-alerts-count]")!.textContent = String(n);
  };
  showCount(unread + openAlerts);

  // A failed count is kept as it was: the next poll tries again. An unchanged one is a 304.
  const countOf = revalidating();
  const poll = startPoll(
    async (signal) => {
      const res = await countOf("/api/notifications/count", { signal });
      if (res === null) return; // unchanged since the last count
      if (res.ok) {
        const body = await res.json();
        if (alerts) showAlerts(body.open_alerts ?? 0);
        showCount((body.total_count ?? 0) + openAlerts);
      } else logFailedFetch(res.status, "/api/notifications/count", "NotificationBell");
    },
    { intervalMs: COUNT_POLL_MS },
    browserEnv,
    () => {},
  );

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
    poll.refresh();
    await load();
  };

  const item = (n: Item) => {
    const li = h("li", "notif-item");
    const title = h("div", "title");
    const link = safeLink(n.link);
    if (link) {
      const a = h("a", "", n.title) as HTMLAnchorElement;
      a.href = link;
      title.append(a);
    } else title.textContent = n.title;
    const meta = h("div", "notif-meta");
    meta.append(h("span", "", ago(n.created_at)));
    if (n.status === "active") {
      if (n.type === "sensor_offline") {
        meta.append(h("span", "badge badge-yellow", texts.stillOffline));
      } else {
        const btn = h("button", "btn btn-sm btn-secondary", texts.resolve) as HTMLButtonElement;
        btn.type = "button";
        btn.onclick = () => {
          btn.disabled = true;
          resolve(n.id).finally(() => btn.isConnected && (btn.disabled = false));
        };
        meta.append(btn);
      }
    }
    li.append(title, h("div", "", n.message), meta);
    return li;
  };

  async function loadAlerts() {
    const words = texts.alerts;
    if (!alerts || !words || !alertSection || openAlerts === 0) return;
    let items: AlertItem[] = [];
    try {
      const res = await fetch("/api/alerts?state=active&size=50", { credentials: "same-origin" });
      if (res.ok) items = (await res.json()).alerts ?? [];
    } catch { /* the count and the link stay */ }
    const open = items.filter((a) => a.state === "open").slice(0, ALERTS_SHOWN);
    alertSection.querySelector("ul")!.replaceChildren(...open.map((a) => {
      const li = h("li", "notif-item");
      const link = h("a", "", `${words.templates[a.template] ?? a.template} · ${a.subject}`);
      (link as HTMLAnchorElement).href = alerts.item.replace("{id}", encodeURIComponent(a.id))
        .replace("{station}", String(a.station_id));
      const title = h("div", "title");
      title.append(link);
      const meta = h("div", "notif-meta");
      meta.append(h("span", "", ago(a.opened_at)));
      li.append(title, meta);
      return li;
    }));
  }

  async function load() {
    const mine = ++loads;
    let items: Item[] = [];
    try {
      const res = await fetch(`/api/notifications?status=${filter}&limit=50`, {
        credentials: "same-origin",
      });
      if (res.ok) items = (await res.json()).notifications ?? [];
    } catch { /* shown as an empty list */ }
    if (mine !== loads) return;
    list.replaceChildren(...(items.length ? items.map(item) : [h("li", "empty", texts.empty)]));
  }

  const onKey = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      setOpen(false);
      bell.focus();
    }
  };
  const onDown = (e: MouseEvent) => {
    if (!root.contains(e.target as Node)) setOpen(false);
  };
  function setOpen(next: boolean) {
    if (next === open) return;
    open = next;
    panel.hidden = !next;
    bell.setAttribute("aria-expanded", String(next));
    const listen = next ? document.addEventListener : document.removeEventListener;
    listen.call(document, "keydown", onKey as EventListener);
    listen.call(document, "mousedown", onDown as EventListener);
    if (next) {
      void loadAlerts();
      void load();
    }
  }

  bell.addEventListener("click", (e) => {
    e.preventDefault();
    setOpen(!open);
  });
  // A link acting as a button answers the space bar too.
  bell.addEventListener("keydown", (e) => {
    if (e.key === " ") {
      e.preventDefault();
      setOpen(!open);
    }
  });
  panel.querySelector<HTMLButtonElement>("[data-close]")!.addEventListener("click", () => {
    setOpen(false);
    bell.focus();
  });
  for (const btn of filters) {
    btn.addEventListener("click", () => {
      filter = btn.dataset.filter!;
      for (const b of filters) {
        const on = b === btn;
        b.setAttribute("aria-pressed", String(on));
        b.classList.toggle("btn-ghost", !on);
      }
      void load();
    });
  }
}
