import { sanitizeComment } from "../platform/text.ts";
import { clampTimestamp } from "../platform/timestamps.ts";
import type { Tx } from "../platform/database/transaction.ts";
import { MAINTENANCE_TYPES, maintenanceTypes } from "./enums.ts";
import type { AnnouncementEffect } from "./transitions.ts";

/** Waldur's MAINTENANCE_ANNOUNCEMENT_NOTIFY_BEFORE_MINUTES and …_TRAILING_BUFFER_MINUTES defaults. */
export const NOTIFY_BEFORE_MINUTES = 60;
export const TRAILING_BUFFER_MINUTES = 60;
const MINUTE = 60_000;

/** What the system announcement of a maintenance is made from. */
export interface AnnouncementSource {
  id: string;
  message: string;
  maintenanceType: number;
  scheduledStart: Date;
  scheduledEnd: Date;
  actualStart: Date | null;
  actualEnd: Date | null;
}

export const ANNOUNCEMENT_SOURCE = {
  id: true,
  message: true,
  maintenanceType: true,
  scheduledStart: true,
  scheduledEnd: true,
  actualStart: true,
  actualEnd: true,
} as const;

/**
 * Text, type and active window; the actual times, once known, replace the scheduled ones. The provider's message is
 * sanitised (no scripts, event handlers or javascript: links): the announcement is shown to every user of the platform.
 */
export function announcementContent(m: AnnouncementSource) {
  const kind = MAINTENANCE_TYPES[maintenanceTypes.ofCode(m.maintenanceType) ?? "SCHEDULED"];
  const start = m.actualStart ?? m.scheduledStart;
  const end = m.actualEnd ?? m.scheduledEnd;
  return {
    description: `${kind.prefix}: ${sanitizeComment(m.message)}`,
    type: kind.announcementType,
    activeFrom: clampTimestamp(new Date(start.getTime() - NOTIFY_BEFORE_MINUTES * MINUTE)),
    activeTo: clampTimestamp(new Date(end.getTime() + TRAILING_BUFFER_MINUTES * MINUTE)),
  };
}

/**
 * Keeps the linked announcement in step. `create` replaces any announcement; `refresh` only rewrites one that
 * still exists, so an announcement staff deleted by hand stays deleted; `remove` deletes it.
 */
export async function syncAnnouncement(tx: Tx, effect: AnnouncementEffect, m: AnnouncementSource) {
  if (effect === "remove") {
    await tx.adminAnnouncement.deleteMany({ where: { maintenanceId: m.id } });
    return;
  }
  const content = announcementContent(m);
  if (effect === "refresh") {
    await tx.adminAnnouncement.updateMany({ where: { maintenanceId: m.id }, data: content });
    return;
  }
  await tx.adminAnnouncement.deleteMany({ where: { maintenanceId: m.id } });
  await tx.adminAnnouncement.create({ data: { ...content, maintenanceId: m.id } });
}
