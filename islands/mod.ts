/**
 * The registry of islands: the only React components sent to browsers. The build makes
 * one module per entry; the server renders them through `<Island of={...}>`.
 */
import AccessCodeForm from "./AccessCodeForm.tsx";
import ClearErrors from "./ClearErrors.tsx";
import ConfirmSubmit from "./ConfirmSubmit.tsx";
import CopyButton from "./CopyButton.tsx";
import DashboardLive from "./DashboardLive.tsx";
import EnergyChart from "./EnergyChart.tsx";
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
  UptimeCharts,
  ZoneLevels,
} as const;

/** The name of an island. */
export type IslandName = keyof typeof ISLANDS;
