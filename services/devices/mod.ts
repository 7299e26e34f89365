/**
 * Stations and sensors: what a caller may see of them, the admin's changes, customers and
 * tenants, the devices' broker accounts, their connection status and their certificates.
 */
export * from "./views.ts";
export * from "./stations.ts";
export * from "./sensors.ts";
export * from "./assignments.ts";
export * from "./tenancies.ts";
export * from "./choices.ts";
export { DEVICE_NOT_FOUND, SENSOR_NOT_FOUND, STATION_NOT_FOUND } from "./_changes.ts";
export { deviceMqttPassword } from "./broker_accounts.ts";
export * from "./access.ts";
export * from "./scope.ts";
export * from "./status.ts";
export * from "./provisioning.ts";
export * from "./sync.ts";
export * from "./certificates.ts";
export * from "./certificate_status.ts";
export * from "./mqtt_probe.ts";
export * from "./lists.ts";
