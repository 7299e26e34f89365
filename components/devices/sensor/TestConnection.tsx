/**
 * The Test MQTT Connection button of the 'MQTT Connection Issue' panel: a plain form post
 * (works without JavaScript) that comes back to the sensor page with the result shown
 * above the button.
 */
import type { Translate } from "../../../services/platform/i18n.ts";

/** What the button shows. */
interface TestConnectionProps {
  t: Translate;
  /** Where the form posts. */
  action: string;
  /** The broker as the meter reaches it, `host:port`. */
  broker: string;
  /** The last result, worded, or null. */
  result: { ok: boolean; message: string } | null;
}

/** The button, with the last result. */
export function TestConnection({ t, action, broker, result }: TestConnectionProps) {
  return (
    <div className="mqtt-test" id="mqtt-test" data-testid="mqtt-test">
      {result && (
        <div
          className={`alert ${result.ok ? "alert-success" : "alert-error"}`}
          role={result.ok ? "status" : "alert"}
          data-testid="mqtt-test-result"
          data-ok={result.ok ? "yes" : "no"}
        >
          {result.message}
        </div>
      )}
      <form method="post" action={action} className="mqtt-test-form">
        <button type="submit" className="btn btn-secondary" data-testid="test-mqtt">
          {t("mqtt_test.button")}
        </button>
        <span className="muted">{t("mqtt_test.hint", { broker })}</span>
      </form>
    </div>
  );
}
