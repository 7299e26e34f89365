/** The customer and tenant homes (welcome and empty state) and the stat card. */
import type { Translate } from "../services/platform/i18n.ts";
import type { User } from "../core/types.ts";

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
