/** The signed-in page frame: sidebar (drawer on phones), header, content, contact dialog. */
import type { ReactNode } from "react";
import type { User } from "../core/types.ts";
import type { Translate } from "../services/platform/i18n.ts";
import type { Contact } from "../services/platform/config.ts";
import { Icon, type IconName } from "./icons.tsx";
import { Island } from "./render.tsx";
import NotificationBell, { type BellAlertsProps } from "../islands/NotificationBell.tsx";
import TermsDialog from "../islands/TermsDialog.tsx";
import { bellTexts } from "./notification_texts.ts";

interface NavItem {
  href: string;
  label: string;
  icon: IconName;
  children?: { href: string; label: string }[];
}

/** The sidebar entries of a role, in order. */
function navFor(role: User["role"], t: Translate): NavItem[] {
  if (role === "admin") {
    return [
      { href: "/admin", label: t("layout.nav.dashboard"), icon: "home" },
      { href: "/admin/users", label: t("layout.nav.users"), icon: "users" },
      { href: "/admin/pricing", label: t("layout.nav.pricing"), icon: "tag" },
      {
        href: "/admin/units-billing",
        label: t("layout.nav.billing"),
        icon: "receipt",
        children: [
          { href: "/admin/units-billing", label: t("layout.nav.units_billing") },
          { href: "/admin/stations-billing", label: t("layout.nav.stations_billing") },
          { href: "/admin/payments", label: t("layout.nav.payments") },
          { href: "/admin/messages", label: t("messages.admin.title") },
        ],
      },
      { href: "/admin/finances", label: t("layout.nav.finances"), icon: "wallet" },
      { href: "/admin/alerts", label: t("alerts.title"), icon: "activity" },
      { href: "/admin/stats", label: t("layout.nav.system_health"), icon: "activity" },
      { href: "/admin/settings", label: t("layout.nav.settings"), icon: "settings" },
    ];
  }
  if (role === "customer") {
    return [
      { href: "/customer", label: t("layout.nav.dashboard"), icon: "home" },
      { href: "/customer/billing", label: t("layout.nav.billing"), icon: "receipt" },
      { href: "/customer/finances", label: t("layout.nav.finances"), icon: "wallet" },
      { href: "/customer/settings", label: t("layout.nav.settings"), icon: "settings" },
    ];
  }
  return [
    { href: "/user", label: t("layout.nav.dashboard"), icon: "home" },
    { href: "/user/consumption", label: t("layout.nav.consumption"), icon: "bolt" },
    { href: "/user/pricing", label: t("layout.nav.pricing_user"), icon: "tag" },
    { href: "/user/billing", label: t("layout.nav.billing"), icon: "receipt" },
    { href: "/user/payments", label: t("layout.nav.payments"), icon: "wallet" },
    { href: "/user/settings", label: t("layout.nav.settings"), icon: "settings" },
  ];
}

const HOMES = new Set(["/admin", "/customer", "/user"]);

/** True when `path` is the page of `href` or below it (home links match only themselves). */
function isActive(href: string, path: string): boolean {
  if (HOMES.has(href)) return path === href;
  return path === href || path.startsWith(href + "/");
}

/** Initials for the avatar. */
function initials(name: string, email: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return email.slice(0, 1).toUpperCase();
  return (parts[0][0] + (parts.length > 1 ? parts[parts.length - 1][0] : "")).toUpperCase();
}

/** Props of {@link Layout}. */
interface LayoutProps {
  user: User;
  t: Translate;
  path: string;
  title: string;
  unread: number;
  /** The reader's open alerts in the bell (null: none for this reader). */
  alerts: BellAlertsProps | null;
  contact: Contact;
  children: ReactNode;
}

/** The frame of every signed-in page. */
export function Layout(
  { user, t, path, title, unread, alerts, contact, children }: LayoutProps,
) {
  const nav = navFor(user.role, t);
  const settingsHref = user.role === "admin"
    ? "/admin/settings"
    : user.role === "customer"
    ? "/customer/settings"
    : "/user/settings";
  return (
    <>
      <a className="skip-link" href="#main">{t("layout.skip_to_content")}</a>
      <input type="checkbox" id="nav-open" aria-hidden="true" tabIndex={-1} />
      <div className="shell">
        <aside className="sidebar" id="sidebar" aria-label={t("layout.menu")}>
          <div style={{ display: "flex", alignItems: "center" }}>
            <a className="sidebar-brand" href={nav[0].href}>
              <Icon name="bolt" /> {t("common.app_name")}
            </a>
            <label htmlFor="nav-open" className="icon-btn nav-close" title={t("layout.close_menu")}>
              <Icon name="close" />
              <span className="visually-hidden">{t("layout.close_menu")}</span>
            </label>
          </div>
          <nav>
            {nav.map((item) =>
              item.children
                ? (
                  <details
                    key={item.label}
                    className="nav-group"
                    open={item.children.some((ch) => isActive(ch.href, path))}
                  >
                    <summary>
                      <Icon name={item.icon} /> {item.label}
                    </summary>
                    <div className="nav-sub">
                      {item.children.map((ch) => (
                        <a
                          key={ch.href}
                          className="nav-link"
                          href={ch.href}
                          aria-current={isActive(ch.href, path) ? "page" : undefined}
                        >
                          {ch.label}
                        </a>
                      ))}
                    </div>
                  </details>
                )
                : (
                  <a
                    key={item.href}
                    className="nav-link"
                    href={item.href}
                    aria-current={isActive(item.href, path) ? "page" : undefined}
                  >
                    <Icon name={item.icon} /> {item.label}
                  </a>
                )
            )}
          </nav>
          <div className="sidebar-foot">
            <div className="email" data-testid="sidebar-email">{user.email}</div>
            <div className="role">{t(`common.roles.${user.role}`)}</div>
            <form method="post" action="/logout">
              <button type="submit" className="btn btn-sm">
                <Icon name="logout" /> {t("layout.sign_out")}
              </button>
            </form>
          </div>
        </aside>
        <label htmlFor="nav-open" className="drawer-overlay" aria-hidden="true" />
        <div className="main">
          <header className="header">
            <label
              htmlFor="nav-open"
              className="icon-btn menu-toggle"
              title={t("layout.open_menu")}
            >
              <Icon name="menu" />
              <span className="visually-hidden">{t("layout.open_menu")}</span>
            </label>
            <p className="header-title">{title}</p>
            <div className="header-actions">
              <Island
                of={NotificationBell}
                props={{ unread, alerts, texts: bellTexts(t, alerts !== null) }}
              />
              <Island of={TermsDialog} props={{}} />
              <a
                className="icon-btn"
                href="/legal"
                title={t("auth.register.terms_title")}
                data-terms-dialog
                aria-haspopup="dialog"
              >
                <Icon name="file" />
                <span className="visually-hidden">{t("auth.register.terms_title")}</span>
              </a>
              <a className="icon-btn" href="#contact" title={t("layout.contact.title")}>
                <Icon name="phone" />
                <span className="visually-hidden">{t("layout.contact.title")}</span>
              </a>
              <a
                className="avatar"
                href={settingsHref}
                title={`${user.full_name} · ${t("layout.nav.settings")}`}
              >
                <span aria-hidden="true">{initials(user.full_name, user.email)}</span>
                <span className="visually-hidden">{t("layout.nav.settings")}</span>
              </a>
            </div>
          </header>
          <main className="content" id="main">{children}</main>
        </div>
      </div>
      <ContactDialog t={t} contact={contact} />
    </>
  );
}

/** The contact dialog, opened by the header's link (`#contact`) without JavaScript. */
function ContactDialog({ t, contact }: { t: Translate; contact: Contact }) {
  const wa = contact.whatsapp.replace(/[^\d]/g, "");
  return (
    <div
      className="modal"
      id="contact"
      role="dialog"
      aria-modal="true"
      aria-labelledby="contact-title"
    >
      <div className="modal-box">
        <div className="modal-head">
          <h2 id="contact-title">{t("layout.contact.title")}</h2>
          <a className="icon-btn" href="#" title={t("common.close")}>
            <Icon name="close" />
            <span className="visually-hidden">{t("common.close")}</span>
          </a>
        </div>
        <div className="modal-body">
          <p>{t("layout.contact.intro")}</p>
          <dl className="contact-list">
            {contact.address && (
              <>
                <dt>{t("layout.contact.address")}</dt>
                <dd>{contact.address}</dd>
              </>
            )}
            <dt>{t("layout.contact.hours")}</dt>
            <dd>{t("layout.contact.hours_value")}</dd>
          </dl>
          <div className="page-actions">
            {wa && (
              <a
                className="btn btn-secondary"
                href={`https://wa.me/${wa}`}
                target="_blank"
                rel="noopener"
              >
                {t("layout.contact.whatsapp")}
              </a>
            )}
            {contact.phone && (
              <a className="btn btn-secondary" href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`}>
                {t("layout.contact.phone")}
              </a>
            )}
            {contact.email && (
              <a className="btn btn-secondary" href={`mailto:${contact.email}`}>
                {t("layout.contact.email")}
              </a>
            )}
            {contact.website && (
              <a
                className="btn btn-secondary"
                href={contact.website}
                target="_blank"
                rel="noopener"
              >
                {t("layout.contact.website")}
              </a>
            )}
          </div>
          {!wa && !contact.phone && !contact.email && !contact.website && (
            <p className="muted small">{t("layout.contact.none_configured")}</p>
          )}
        </div>
      </div>
    </div>
  );
}
