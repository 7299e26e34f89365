/** The tenant's payment pages re-read while a SPEI transfer is awaited (the LiveRefresh island). */
import type { Translate } from "../../services/platform/i18n.ts";
import { Island } from "../render.tsx";
import LiveRefresh from "../../islands/LiveRefresh.tsx";

/** Props of {@link PaymentsRefresh}. */
interface PaymentsRefreshProps {
  t: Translate;
  /** How often the page is read again. */
  seconds: number;
  /** The `payments.errors.*` text shown when a read fails. */
  error: "load_title" | "error_loading_payments";
}

/** The island, with its texts. */
export function PaymentsRefresh({ t, seconds, error }: PaymentsRefreshProps) {
  return (
    <Island
      of={LiveRefresh}
      props={{
        seconds,
        errorText: t(`payments.errors.${error}`),
        retry: t("payments.errors.retry"),
      }}
    />
  );
}
