/** The `eventCreated` topic: an audit event was recorded. */
export interface EventCreatedPayload {
  eventId: number;
  eventType: string;
}

declare module "../platform/messaging/topics.ts" {
  interface Topics {
    eventCreated: EventCreatedPayload;
  }
}
