/**
 * A page with its open alerts under it (issue 30): the station and sensor pages wrapped, so
 * their own components stay as they are.
 */
import type { ReactNode } from "react";
import type { Translate } from "../../services/platform/i18n.ts";
import type { OpenAlertsView } from "../../services/alerts/views.ts";
import { Card } from "../kit/mod.ts";
import { AlertList } from "./AlertList.tsx";

/** The card of open alerts (nothing when there are none); `actions`: an admin's forms. */
export function OpenAlertsCard(
  { t, view, actions = true }: { t: Translate; view: OpenAlertsView; actions?: boolean },
) {
  if (view.alerts.length === 0) return null;
  return (
    <Card title={t("alerts.open_title")}>
      <AlertList
        t={t}
        alerts={view.alerts}
        value={(a) => view.values[a.id] ?? ""}
        offsetMinutes={view.offsetMinutes}
        actions={actions}
        back={view.back}
      />
    </Card>
  );
}

/** `Component` followed by the card of open alerts (read only without `actions`: an owner's). */
export function withOpenAlerts<P extends { t: Translate }>(
  Component: (props: P) => ReactNode,
  actions = true,
) {
  return (props: P & { openAlerts: OpenAlertsView }) => (
    <>
      <Component {...props} />
      <OpenAlertsCard t={props.t} view={props.openAlerts} actions={actions} />
    </>
  );
}
