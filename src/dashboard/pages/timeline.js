import { byId, h, humanize } from "./dom.js";
import { timeElement } from "./time.js";

const KEPT = 80;

/** What a kind of event is about, by its type's prefix: the timeline's label and filter key. */
const KINDS = [
  ["marketplace_offering_user_", "offering-user", "Offering user"],
  ["marketplace_order_", "order", "Order"],
  ["marketplace_resource_", "resource", "Resource"],
  ["maintenance_announcement_", "maintenance", "Maintenance"],
  ["terms_of_service_", "terms", "Terms of service"],
  ["marketplace_site_agent_", "site-agent", "Site agent"],
];

const kindOf = (eventType) => KINDS.find(([prefix]) => eventType.startsWith(prefix)) ?? ["", "other", "Event"];

/** Every change the viewer may see, newest first, each once (by event id): offering users' transitions and the rest. */
export function timelinePanel() {
  const list = byId("timeline-list");
  const shown = new Set();

  function place(eventId, item) {
    if (shown.has(eventId)) return;
    shown.add(eventId);
    // Replayed changes arrive oldest first and live ones in commit order: place each by event id.
    const later = [...list.children].find((other) => Number(other.dataset.eventId) < eventId);
    list.insertBefore(item, later ?? null);
    while (list.children.length > KEPT) {
      const oldest = list.lastElementChild;
      shown.delete(Number(oldest.dataset.eventId));
      oldest.remove();
    }
    byId("timeline-empty").hidden = true;
  }

  return {
    /** An offering user's transition (offeringUserChanged). */
    add(change) {
      const { eventId, created } = change.event;
      const offeringUser = change.offeringUser;
      const who = offeringUser ? `${offeringUser.user.username} in ${offeringUser.offering.name}` : `offering user ${change.offeringUserUuid} (deleted)`;
      place(
        eventId,
        h(
          "li",
          { dataset: { eventId: String(eventId), uuid: change.offeringUserUuid, kind: "offering-user" } },
          h("span", { className: "kind" }, "Offering user"),
          timeElement(created),
          h("span", { className: "who" }, who),
          h(
            "span",
            { className: "transition" },
            change.previousState ? h("span", { className: `state state-${change.previousState}` }, humanize(change.previousState)) : "created",
            " → ",
            h("span", { className: `state state-${change.state}` }, humanize(change.state)),
          ),
        ),
      );
    },
    /** Any other audit event (eventCreated): its kind, its message and what it is about. */
    addEvent(event) {
      const [, kind, label] = kindOf(event.eventType);
      place(
        event.eventId,
        h(
          "li",
          { dataset: { eventId: String(event.eventId), kind, uuid: event.subject?.uuid, eventType: event.eventType } },
          h("span", { className: "kind" }, label),
          timeElement(event.created),
          h("span", { className: "message" }, event.message),
        ),
      );
    },
    clear(kind) {
      for (const item of [...list.children]) {
        if (kind && (item.dataset.kind === "offering-user") !== (kind === "offering-user")) continue;
        shown.delete(Number(item.dataset.eventId));
        item.remove();
      }
      byId("timeline-empty").hidden = list.children.length > 0;
    },
  };
}
