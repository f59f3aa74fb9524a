import { createClient } from "./vendor/graphql-ws/client.js";

/** Close codes after which retrying with the same token cannot help (see docs/graphql.md, WebSocket). */
const TOKEN_REFUSED = new Set([4401, 4403]);

/**
 * One graphql-ws connection for the page, authenticated in `connectionParams`, reconnecting until it is disposed.
 * `onStatus` hears "connecting", "live" (with whether it was a reconnect), "offline" and "refused" (with the reason).
 */
export function openLive(token, onStatus) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  let refused = false;
  const client = createClient({
    url: `${scheme}//${location.host}/graphql`,
    connectionParams: { authorization: `Token ${token}` },
    lazy: false,
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: (event) => !(event && TOKEN_REFUSED.has(event.code)),
    onNonLazyError: () => {},
    on: {
      connecting: () => onStatus("connecting"),
      connected: (_socket, _payload, wasRetry) => onStatus("live", wasRetry),
      closed: (event) => {
        if (event && TOKEN_REFUSED.has(event.code)) {
          refused = true;
          onStatus("refused", event.reason || `closed with ${event.code}`);
        } else if (!refused) onStatus("offline");
      },
    },
  });
  return client;
}

/**
 * Follows a resumable subscription (`field` of `query`, which takes `$after: Int`) from event `after` on: each change
 * goes to `onChange`. The variables object is the one graphql-ws sends again when it reconnects, so advancing `after`
 * with every change resumes exactly after the last one received. A server that cannot replay that far (VALIDATION on
 * `after`) is followed again from now, after `onGap`.
 */
function followResumable(client, { query, field, eventIdOf, variables: fixed = {} }, { after, onChange, onGap, onError }) {
  const variables = { ...fixed, after };
  let stop = () => {};
  let stopped = false;
  const start = () => {
    if (stopped) return;
    stop = client.subscribe(
      { query, variables },
      {
        next: ({ data, errors }) => {
          if (errors?.length) return onError(errors[0].message);
          const change = data?.[field];
          if (!change) return;
          variables.after = Math.max(variables.after ?? 0, eventIdOf(change));
          onChange(change);
        },
        error: (error) => {
          const errors = Array.isArray(error) ? error : [];
          if (errors.some((each) => each.extensions?.code === "VALIDATION") && variables.after != null) {
            variables.after = undefined;
            onGap();
            start();
          } else if (errors.length) onError(errors[0].message);
        },
        complete: () => {},
      },
    );
  };
  start();
  return {
    get lastEventId() {
      return variables.after;
    },
    dispose() {
      stopped = true;
      stop();
    },
  };
}

/** Offering users' transitions, with their states. */
export const followOfferingUsers = (client, handlers) =>
  followResumable(
    client,
    {
      query: `subscription Changes($after: Int) {
        offeringUserChanged(after: $after) {
          offeringUserUuid state previousState
          offeringUser { id uuid username user { username } offering { name } }
          event { id eventId created }
        }
      }`,
      field: "offeringUserChanged",
      eventIdOf: (change) => change.event.eventId,
    },
    handlers,
  );

/** Audit events of `eventTypes` (orders, maintenance, resources, terms, site agents): the rest of the timeline. */
export const followEvents = (client, eventTypes, handlers) =>
  followResumable(
    client,
    {
      query: `subscription Events($after: Int, $eventTypes: [EventType!]) {
        eventCreated(after: $after, eventType: $eventTypes) {
          id eventId eventType type message created
          subject { __typename id ... on Order { uuid } ... on Resource { uuid } ... on MaintenanceAnnouncement { uuid } }
        }
      }`,
      field: "eventCreated",
      eventIdOf: (event) => event.eventId,
      variables: { eventTypes },
    },
    handlers,
  );

/** Calls `onChange` for every order or announcement change the viewer may see (no replay: the panels re-read). */
export function followOperations(client, onChange) {
  const sink = { next: onChange, error: () => {}, complete: () => {} };
  const stops = [
    client.subscribe({ query: "subscription { orderChanged { orderUuid state } }" }, sink),
    client.subscribe({ query: "subscription { maintenanceChanged { maintenanceAnnouncementUuid state } }" }, sink),
  ];
  return () => stops.forEach((stop) => stop());
}
