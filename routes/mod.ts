/** `createApp(deps)`: the whole HTTP surface, with no network needed (tests call `app.request`). */
import { openApiRoutes } from "./api/openapi.tsx";
import { apiKeyScope } from "./_api_key_scope.ts";
import { auditApiRoutes } from "./api/audit.ts";
import { Hono } from "hono";
import { compress } from "hono/compress";
import type { AppDeps, AppEnv } from "./_deps.ts";
import { csrfMiddleware, sessionMiddleware } from "./_session.ts";
import { keepExpiredPosts } from "./_kept_form.ts";
import { staticRoutes } from "./static.ts";
import { healthRoutes } from "./health.ts";
import { securityHeaders } from "./_security.ts";
import { authRoutes } from "./auth.tsx";
import { authApiRoutes, registerApiRoute } from "./api/auth.ts";
import { legalRoutes } from "./legal.tsx";
import { passwordResetRoutes } from "./password_reset.tsx";
import { userApiRoutes } from "./api/users.ts";
import { notificationApiRoutes } from "./api/notifications.ts";
import { alertApiRoutes } from "./api/alerts.ts";
import { deviceApiRoutes } from "./api/devices.ts";
import { mqttConnectionApiRoutes } from "./api/mqtt_connection.ts";
import { certificateApiRoutes } from "./api/certificates.ts";
import { meterApiRoutes } from "./api/meters.ts";
import { analyticsApiRoutes, measurementApiRoutes } from "./api/measurements.ts";
import { zoneApiRoutes } from "./api/zones.ts";
import { billingApiRoutes, billingRootRoutes } from "./api/billing.ts";
import { tenantBillingApiRoutes } from "./api/tenant_billing.ts";
import { reportApiRoutes } from "./api/reports.ts";
import { tenantPaymentApiRoutes } from "./api/tenant_payments.ts";
import { webhookRoutes } from "./api/webhooks.ts";
import { financeApiRoutes } from "./api/finances.ts";
import { customerBillingApiRoutes } from "./api/customer_billing_overview.ts";
import { adminFinanceRoutes } from "./admin_finances.tsx";
import { customerBillingRoutes } from "./customer_billing.tsx";
import { loggingRoutes } from "./api/logging.ts";
import { adminRoutes } from "./admin.tsx";
import { adminPaymentRoutes } from "./admin_payments.tsx";
import { adminMessageRoutes } from "./admin_messages.tsx";
import { adminAlertRoutes } from "./admin_alerts.tsx";
import { adminInvoiceRoutes } from "./admin_invoices.tsx";
import { customerRoutes } from "./customer.tsx";
import { tenantRoutes } from "./tenant.tsx";
import { notificationPageRoutes } from "./notifications.tsx";
import { errorPage } from "./_page.tsx";
import { BodyTooLarge, NotJson } from "./_http.ts";
import { Refusal, refusalResponse } from "./_refusal.tsx";
import { storageRefusal } from "../services/refusal.ts";
import { createMetrics } from "../services/platform/metrics.ts";
import { httpMetrics, metricsRoutes } from "./metrics.ts";
import { serverTiming } from "./_timing.ts";

/** Builds the portal's Hono app from its dependencies. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const metrics = createMetrics(deps);
  app.use(serverTiming(deps));
  app.use(httpMetrics(metrics));
  app.use(compress());
  app.use(securityHeaders(deps));
  app.route("/", staticRoutes(deps));
  app.route("/", healthRoutes(deps));
  app.route("/", metricsRoutes(deps, metrics));
  // Openpay's webhook authenticates by its own Basic credentials: no session, no CSRF check.
  app.route("/api/webhooks", webhookRoutes(deps));
  app.use(sessionMiddleware(deps));
  app.use(csrfMiddleware(deps));
  app.use(keepExpiredPosts(deps));
  app.use(apiKeyScope());
  app.route("/", authRoutes(deps));
  app.route("/auth", authApiRoutes(deps));
  app.route("/", passwordResetRoutes(deps));
  app.route("/api/auth", registerApiRoute(deps));
  app.route("/legal", legalRoutes(deps));
  const logging = loggingRoutes(deps);
  app.route("/logging", logging);
  app.route("/api/logging", logging);
  app.route("/api/users", userApiRoutes(deps));
  app.route("/api/audit-log", auditApiRoutes(deps));
  app.route("/api", openApiRoutes(deps, () => app.routes));
  app.route("/api/notifications", notificationApiRoutes(deps));
  app.route("/api/alerts", alertApiRoutes(deps));
  app.route("/api/devices", deviceApiRoutes(deps));
  app.route("/api/devices", mqttConnectionApiRoutes(deps));
  app.route("/api/devices", certificateApiRoutes(deps));
  app.route("/api/devices", meterApiRoutes(deps));
  app.route("/api/measurements", measurementApiRoutes(deps));
  app.route("/api/analytics", analyticsApiRoutes(deps));
  app.route("/api/zones", zoneApiRoutes(deps));
  app.route("/", billingRootRoutes(deps));
  app.route("/api", billingApiRoutes(deps));
  app.route("/api/tenant-billing-overview", tenantBillingApiRoutes(deps));
  app.route("/reports", reportApiRoutes(deps));
  app.route("/api/reports", reportApiRoutes(deps));
  app.route("/api/tenant-payments", tenantPaymentApiRoutes(deps));
  app.route("/api/finances", financeApiRoutes(deps));
  app.route("/api/customer-billing-overview", customerBillingApiRoutes(deps));
  app.route("/notifications", notificationPageRoutes(deps));
  app.route("/admin/payments", adminPaymentRoutes(deps));
  app.route("/admin/invoices", adminInvoiceRoutes(deps));
  app.route("/admin/messages", adminMessageRoutes(deps));
  app.route("/admin/alerts", adminAlertRoutes(deps));
  app.route("/admin/finances", adminFinanceRoutes(deps));
  app.route("/admin", adminRoutes(deps));
  app.route("/customer/billing", customerBillingRoutes(deps));
  app.route("/customer", customerRoutes(deps));
  app.route("/user", tenantRoutes(deps));

  app.notFound((c) => {
    const p = c.req.path;
    if (p.startsWith("/api/") || p.startsWith("/auth/") || c.req.method !== "GET") {
      return c.json({ message: c.var.t?.("errors.not_found") ?? "Not found" }, 404);
    }
    return c.redirect("/");
  });

  app.onError((err, c) => {
    if (err instanceof Refusal) return refusalResponse(c, deps, err);
    const storage = storageRefusal(err);
    if (storage) {
      deps.log.log("error", "storage failed", {
        path: c.req.path,
        method: c.req.method,
        error: String(err),
      });
      return refusalResponse(c, deps, storage);
    }
    if (err instanceof NotJson) {
      const t = c.var.t ?? deps.i18n.t("es");
      return c.json({ message: t("errors.unsupported_media_type") }, 415);
    }
    if (err instanceof BodyTooLarge) {
      const t = c.var.t ?? deps.i18n.t("es");
      const kb = Math.floor(err.limit / 1024);
      return c.json({ message: t("errors.body_too_large", { kb }), limit_bytes: err.limit }, 413);
    }
    deps.log.log("error", "unhandled error", {
      path: c.req.path,
      method: c.req.method,
      error: String(err),
      stack: err instanceof Error ? err.stack : undefined,
    });
    const t = c.var.t ?? deps.i18n.t("es");
    const p = c.req.path;
    if (p.startsWith("/api/") || p.startsWith("/auth/") || c.req.method !== "GET") {
      return c.json({ message: t("errors.something_went_wrong") }, 500);
    }
    return errorPage(c, deps, t, err);
  });
  return app;
}
