/** The `eventCreated` topic: an audit event was recorded. */
export interface EventCreatedPayload {
  eventId: number;
  eventType: string;
}
