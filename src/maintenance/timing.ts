/**
 * How an announcement's maintenance kept to its schedule: Waldur's `start_delta_minutes`, `overrun_minutes` and
 * `timing_bucket`, computed from the scheduled and actual times alone (so they never change while nothing is stamped).
 */

export const TIMING_BUCKETS = {
  PENDING: { label: "pending", description: "Not started yet" },
  OVERRUN: { label: "overrun", description: "Ended more than the grace period after the scheduled end" },
  LATE_START: { label: "late_start", description: "Started more than the grace period after the scheduled start" },
  EARLY: { label: "early", description: "Started more than the grace period before the scheduled start" },
  ON_TIME: { label: "on_time", description: "Started (and, if ended, ended) within the grace period" },
} as const;
export type TimingBucket = keyof typeof TIMING_BUCKETS;

/** Minutes a start or end may differ from the schedule and still count as on time (Waldur's 15-minute on-time rate). */
export const TIMING_GRACE_MINUTES = 15;

export interface Schedule {
  scheduledStart: Date;
  scheduledEnd: Date;
  actualStart: Date | null;
  actualEnd: Date | null;
}

export interface Timing {
  /** Whole minutes from the scheduled to the actual start (negative: early); null until started. */
  startDeltaMinutes: number | null;
  /** Whole minutes from the scheduled to the actual end (negative: ended early); null until ended. */
  overrunMinutes: number | null;
  timingBucket: TimingBucket;
}

const wholeMinutesBetween = (from: Date, to: Date | null) => (to ? Math.trunc((to.getTime() - from.getTime()) / 60_000) : null);

function bucketOf(startDelta: number | null, overrun: number | null): TimingBucket {
  if (startDelta === null) return "PENDING";
  if (overrun !== null && overrun > TIMING_GRACE_MINUTES) return "OVERRUN";
  if (startDelta > TIMING_GRACE_MINUTES) return "LATE_START";
  if (startDelta < -TIMING_GRACE_MINUTES) return "EARLY";
  return "ON_TIME";
}

export function timingOf(m: Schedule): Timing {
  const startDeltaMinutes = wholeMinutesBetween(m.scheduledStart, m.actualStart);
  const overrunMinutes = wholeMinutesBetween(m.scheduledEnd, m.actualEnd);
  return { startDeltaMinutes, overrunMinutes, timingBucket: bucketOf(startDeltaMinutes, overrunMinutes) };
}

export const timingBucketLabel = (bucket: TimingBucket) => TIMING_BUCKETS[bucket].label;

const BUCKET_BY_LABEL = new Map<string, TimingBucket>(
  Object.entries(TIMING_BUCKETS).map(([bucket, { label }]) => [label, bucket as TimingBucket]),
);

/** `on_time,late_start` as buckets; words that name no bucket select nothing. */
export const parseTimingBuckets = (text: string): TimingBucket[] =>
  text.split(",").flatMap((word) => BUCKET_BY_LABEL.get(word.trim()) ?? []);

/** The Prisma selection `timingOf` reads. */
export const SCHEDULE = { scheduledStart: true, scheduledEnd: true, actualStart: true, actualEnd: true } as const;
