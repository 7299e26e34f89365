/** The role homes of this first slice: welcome, what is there, and where to go next. */
import type { Translate } from "../services/i18n.ts";
import type { User, UserStats } from "../core/types.ts";
import type { DeviceStats } from "../core/devices.ts";

/** Props of {@link AdminHome}. */
export interface AdminHomeProps {
  t: Translate;
  stats: UserStats;
  devices: DeviceStats;
}

/** The admin home: device and user statistics and quick links. */
export function AdminHome({ t, stats, devices }: AdminHomeProps) {
  return (
    <>
      <div className="page-head">
        <h1>{t("home.admin.title")}</h1>
        <div className="page-actions">
          <a className="btn" href="/admin/devices/station/create">
            {t("dashboard.admin_dashboard.add_station")}
          </a>
          <a className="btn btn-secondary" href="/admin/users/accounts-form/customer">
            {t("users.create_customer")}
          </a>
          <a className="btn btn-secondary" href="/admin/access-codes/create">
            {t("users.create_access_code")}
          </a>
        </div>
      </div>
      <div className="stats">
        <Stat label={t("dashboard.stats.stations")} value={devices.stationCount} />
        <Stat label={t("dashboard.stats.sensors")} value={devices.sensorCount} />
        <Stat label={t("dashboard.stats.online")} value={devices.onlineCount} />
        <Stat label={t("dashboard.stats.units")} value={devices.unitCount} />
      </div>
      <section className="card" style={{ marginBottom: "1rem" }}>
        <h2>{t("dashboard.stats.stations")}</h2>
        <p className="muted">{t("home.admin.stations_text")}</p>
        <div className="page-actions">
          <a className="btn btn-secondary" href="/admin/devices">{t("home.admin.stations_link")}</a>
        </div>
      </section>
      <div className="stats">
        <Stat label={t("users.stats.total_users")} value={stats.totalUsers} />
        <Stat label={t("users.stats.customers")} value={stats.totalCustomers} />
        <Stat label={t("users.stats.tenants")} value={stats.totalTenants} />
        <Stat label={t("users.stats.unused_codes")} value={stats.unusedCodes} />
      </div>
      <section className="card">
        <h2>{t("home.admin.next_title")}</h2>
        <p className="muted">{t("home.admin.next_text")}</p>
        <div className="page-actions">
          <a className="btn btn-secondary" href="/admin/users">{t("layout.nav.users")}</a>
          <a className="btn btn-secondary" href="/admin/users?tab=access-codes">
            {t("users.tabs.access_codes")}
          </a>
        </div>
      </section>
    </>
  );
}

/** A stat card. */
export function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="stat">
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
    </div>
  );
}

/** The customer and tenant homes: welcome and the empty state until devices arrive. */
export function MemberHome({ t, user }: { t: Translate; user: User }) {
  const isCustomer = user.role === "customer";
  const count = isCustomer ? user.assignments.stations.length : user.assignments.units.length;
  return (
    <>
      <div className="page-head">
        <h1>{t("home.welcome", { name: user.full_name })}</h1>
      </div>
      <section className="card empty" data-testid="home-empty">
        <h2>
          {isCustomer ? t("home.customer.no_installations_title") : t("home.user.no_units_title")}
        </h2>
        <p>
          {count > 0
            ? t(isCustomer ? "home.customer.assigned_pending" : "home.user.assigned_pending", {
              n: count,
            })
            : t(isCustomer ? "home.customer.no_installations_text" : "home.user.no_units_text")}
        </p>
        <a className="btn btn-secondary" href="#contact">{t("layout.contact.title")}</a>
      </section>
    </>
  );
}
