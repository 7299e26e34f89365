/**
 * The registry of islands: the parts of pages that do something in the browser. The server
 * renders each through `<Island of={...}>`; the build makes one module per entry. Most are
 * React components hydrated in the browser; those in {@link PLAIN_ISLANDS} send no React:
 * their browser side is a plain script.
 */
import AccessCodeForm from "./AccessCodeForm.tsx";
import ClearErrors from "./ClearErrors.tsx";
import ConfirmSubmit from "./ConfirmSubmit.tsx";
import CopyButton from "./CopyButton.tsx";
import DashboardLive from "./DashboardLive.tsx";
import EnergyChart from "./EnergyChart.tsx";
import FormRestore from "./FormRestore.tsx";
import GenerateReference from "./GenerateReference.tsx";
import LiveRefresh from "./LiveRefresh.tsx";
import NotificationBell from "./NotificationBell.tsx";
import RecalcForm from "./RecalcForm.tsx";
import ReportDownload from "./ReportDownload.tsx";
import RoleSelect from "./RoleSelect.tsx";
import SensorLive from "./SensorLive.tsx";
import StationEditor from "./StationEditor.tsx";
import StationStatus from "./StationStatus.tsx";
import TenantChart from "./TenantChart.tsx";
import TermsConsent from "./TermsConsent.tsx";
import TermsDialog from "./TermsDialog.tsx";
import UptimeCharts from "./UptimeCharts.tsx";
import ZoneLevels from "./ZoneLevels.tsx";

/** Every island by name (the name is its file name and its module's name). */
export const ISLANDS = {
  AccessCodeForm,
  ClearErrors,
  ConfirmSubmit,
  CopyButton,
  DashboardLive,
  EnergyChart,
  FormRestore,
  GenerateReference,
  LiveRefresh,
  NotificationBell,
  RecalcForm,
  ReportDownload,
  RoleSelect,
  SensorLive,
  StationEditor,
  StationStatus,
  TenantChart,
  TermsConsent,
  TermsDialog,
  UptimeCharts,
  ZoneLevels,
} as const;

/** The name of an island. */
export type IslandName = keyof typeof ISLANDS;

/**
 * Islands whose browser side is the plain script `islands/<Name>.client.ts`, exporting
 * `mount(element, props)` (no React): the server renders the component as for any island
 * and the script adds the behaviour. A page whose islands are all plain loads no React.
 */
export const PLAIN_ISLANDS: ReadonlySet<IslandName> = new Set<IslandName>([
  "ClearErrors",
  "ConfirmSubmit",
  "CopyButton",
  "DashboardLive",
  "EnergyChart",
  "FormRestore",
  "GenerateReference",
  "LiveRefresh",
  "NotificationBell",
  "ReportDownload",
  "RoleSelect",
  "TenantChart",
  "TermsConsent",
  "TermsDialog",
  "UptimeCharts",
]);

/** Islands that draw with uPlot: their pages also link its stylesheet. */
export const CHART_ISLANDS: ReadonlySet<IslandName> = new Set<IslandName>([
  "EnergyChart",
  "TenantChart",
  "UptimeCharts",
]);

/**
 * Plain islands whose browser side reads only the server-rendered markup: their props are
 * not sent to the browser again (the registration form's legal texts would be twice).
 */
export const MARKUP_ONLY_ISLANDS: ReadonlySet<IslandName> = new Set<IslandName>([
  "TermsConsent",
]);
