/**
 * The operator's settings read with the rest of the configuration (`config.ts`): the
 * portal's own rotated backups and the token of `GET /metrics`.
 */
import { z } from "zod";

/** Backups the portal makes of itself: none while `dir` is null. */
export interface BackupSettings {
  /** `BACKUP_DIR`: where the archives go. */
  dir: string | null;
  /** `BACKUP_EVERY_HOURS` (default 24). */
  everyHours: number;
  /** `BACKUP_KEEP` (default 14): the newest archives kept, older ones deleted. */
  keep: number;
}

/**
 * A whole-number variable from `min` to `max`, `fallback` when unset or empty; any other text
 * refused naming the variable (every such variable of the configuration reads this way).
 */
export const wholeNumber = (name: string, fallback: number, min: number, max: number) =>
  z.string().optional().transform((v, ctx) => {
    if (v === undefined || v === "") return fallback;
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < min || n > max) {
      ctx.addIssue({
        code: "custom",
        message: `${name} must be a whole number from ${min} to ${max}, got "${v}"`,
      });
      return z.NEVER;
    }
    return n;
  });

/** The variables, merged into the configuration's schema. */
export const OPS_ENV = {
  BACKUP_DIR: z.string().optional(),
  BACKUP_EVERY_HOURS: wholeNumber("BACKUP_EVERY_HOURS", 24, 1, 8760),
  BACKUP_KEEP: wholeNumber("BACKUP_KEEP", 14, 1, 10_000),
  METRICS_TOKEN: z.string().optional().refine((v) => !v || /^\S{16,}$/.test(v), {
    message: "METRICS_TOKEN must have at least 16 characters without spaces",
  }),
};

/** The settings from the parsed variables. */
export function opsSettings(v: {
  BACKUP_DIR?: string;
  BACKUP_EVERY_HOURS: number;
  BACKUP_KEEP: number;
  METRICS_TOKEN?: string;
}): { backup: BackupSettings; metricsToken: string | null } {
  return {
    backup: {
      dir: v.BACKUP_DIR?.trim().replace(/\/+$/, "") || null,
      everyHours: v.BACKUP_EVERY_HOURS,
      keep: v.BACKUP_KEEP,
    },
    metricsToken: v.METRICS_TOKEN || null,
  };
}
