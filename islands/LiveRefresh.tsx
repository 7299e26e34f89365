/**
 * Refreshes the parts of a page marked `data-live="{name}"` every `seconds` (spec 001 section 9:
 * the tenant dashboard, the owner's dashboard and unit page poll every 30 s). The server
 * renders nothing; the browser side is the plain script `LiveRefresh.client.ts`.
 */

/** Props of the island. */
export interface LiveRefreshProps {
  seconds: number;
  errorText: string;
  retry: string;
}

/** Nothing until a refresh fails (the script then shows the error and a Retry button). */
export default function LiveRefresh(_props: LiveRefreshProps) {
  return null;
}
