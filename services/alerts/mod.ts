/** Alerts (issue 30): rules, their evaluation in ingest's path and on a timer, their life. */
export { AlertEvaluator, readyEvaluator } from "./evaluator.ts";
export { runAlertTimer, sendReminders, startAlertTimer } from "./timer.ts";
export {
  acknowledge,
  type AlertFilter,
  alertsFor,
  createRule,
  removeRule,
  resolveByHand,
  rulesOf,
} from "./actions.ts";
export { valueText } from "./words.ts";
export { type OpenAlertsView, openAlertsView } from "./views.ts";
export { type AlertMoment, alertWithMoment } from "./moment.ts";
export { type BellAlerts, bellAlertsOf } from "./bell.ts";
