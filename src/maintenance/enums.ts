import type { AnnouncementType, MaintenanceState } from "../generated/prisma/client.ts";

/** Waldur's database integer and display label of each status; the REST API shows labels. */
export const MAINTENANCE_STATES: Record<MaintenanceState, { code: number; label: string }> = {
  DRAFT: { code: 1, label: "Draft" },
  SCHEDULED: { code: 2, label: "Scheduled" },
  IN_PROGRESS: { code: 3, label: "In progress" },
  COMPLETED: { code: 4, label: "Completed" },
  CANCELLED: { code: 5, label: "Cancelled" },
};

export const maintenanceStateLabel = (state: MaintenanceState) => MAINTENANCE_STATES[state].label;


/** The statuses the public view shows (Waldur §4.4). */
export const PUBLIC_STATES: readonly MaintenanceState[] = ["SCHEDULED", "IN_PROGRESS", "COMPLETED"];
export const isPublicState = (state: string | null | undefined) => PUBLIC_STATES.includes(state as MaintenanceState);

/** A table of values (GraphQL enum values) each stored as Waldur's integer `code`, looked up both ways. */
function codedValues<V extends string>(table: Readonly<Record<V, { code: number }>>) {
  // Object.keys widens the keys to string; they are V's by construction.
  const values = Object.keys(table) as V[];
  const byCode = new Map(values.map((value) => [table[value].code, value]));
  return {
    /** The value of an integer a client sent; undefined when it is none. */
    ofCode: (code: number) => byCode.get(code),
    /** The value of a stored integer, which writes only ever store as one of the codes. */
    ofStored(code: number): V {
      const value = byCode.get(code);
      if (value === undefined) throw new Error(`${code} is no stored code of ${values.join(", ")}`);
      return value;
    },
    codeOf: (value: V) => table[value].code,
    /** Each value by its integer as REST spells it in a query string: `{ "1": … }`. */
    byRestSpelling: Object.fromEntries(values.map((value) => [String(table[value].code), value])),
  };
}

/**
 * maintenance_type: Waldur's integer, its display name, and the system announcement it becomes once scheduled
 * (Waldur's MaintenanceAnnouncementTemplate: prefix of the text and announcement type).
 */
export const MAINTENANCE_TYPES = {
  SCHEDULED: { code: 1, display: "Scheduled maintenance", prefix: "🔧 Scheduled Maintenance", announcementType: "INFORMATION" },
  EMERGENCY: { code: 2, display: "Emergency maintenance", prefix: "🚨 Emergency Maintenance", announcementType: "DANGER" },
  SECURITY: { code: 3, display: "Security maintenance", prefix: "🔒 Security Maintenance", announcementType: "WARNING" },
  SYSTEM_UPGRADE: { code: 4, display: "System upgrade", prefix: "🔧 Scheduled Maintenance", announcementType: "INFORMATION" },
  PATCH_DEPLOYMENT: { code: 5, display: "Patch deployment", prefix: "🔧 Scheduled Maintenance", announcementType: "INFORMATION" },
} as const satisfies Record<string, { code: number; display: string; prefix: string; announcementType: AnnouncementType }>;
export type MaintenanceType = keyof typeof MAINTENANCE_TYPES;
export const maintenanceTypes = codedValues(MAINTENANCE_TYPES);
export function maintenanceTypeDisplay(code: number) {
  const type = maintenanceTypes.ofCode(code);
  return type ? MAINTENANCE_TYPES[type].display : String(code);
}

/** impact_level: Waldur's integer and its display name. */
export const IMPACT_LEVELS = {
  NO_IMPACT: { code: 1, display: "No impact" },
  DEGRADED_PERFORMANCE: { code: 2, display: "Degraded performance" },
  PARTIAL_OUTAGE: { code: 3, display: "Partial outage" },
  FULL_OUTAGE: { code: 4, display: "Full outage" },
} as const satisfies Record<string, { code: number; display: string }>;
export type ImpactLevel = keyof typeof IMPACT_LEVELS;
export const impactLevels = codedValues(IMPACT_LEVELS);
export function impactLevelDisplay(code: number) {
  const level = impactLevels.ofCode(code);
  return level ? IMPACT_LEVELS[level].display : String(code);
}

/** AdminAnnouncement.type as Waldur writes it. */
export const ANNOUNCEMENT_TYPE_LABELS: Record<AnnouncementType, string> = {
  INFORMATION: "information",
  WARNING: "warning",
  DANGER: "danger",
};
