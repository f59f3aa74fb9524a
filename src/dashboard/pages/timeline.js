import { byId, formatTime, h, humanize } from "./dom.js";

const KEPT = 50;

/** The last offering-user transitions, newest first, each once (by event id). */
export function timelinePanel() {
  const list = byId("timeline-list");
  const shown = new Set();

  return {
    add(change) {
      const { eventId, created } = change.event;
      if (shown.has(eventId)) return;
      shown.add(eventId);
      const offeringUser = change.offeringUser;
      const who = offeringUser ? `${offeringUser.user.username} in ${offeringUser.offering.name}` : `offering user ${change.offeringUserUuid} (deleted)`;
      const item = h(
        "li",
        { dataset: { eventId: String(eventId), uuid: change.offeringUserUuid } },
        h("time", { dateTime: created }, formatTime(created)),
        h("span", { className: "who" }, who),
        h(
          "span",
          { className: "transition" },
          change.previousState ? h("span", { className: `state state-${change.previousState}` }, humanize(change.previousState)) : "created",
          " → ",
          h("span", { className: `state state-${change.state}` }, humanize(change.state)),
        ),
      );
      // Replayed changes arrive oldest first and live ones in commit order: place each by event id.
      const later = [...list.children].find((other) => Number(other.dataset.eventId) < eventId);
      list.insertBefore(item, later ?? null);
      while (list.children.length > KEPT) {
        const oldest = list.lastElementChild;
        shown.delete(Number(oldest.dataset.eventId));
        oldest.remove();
      }
      byId("timeline-empty").hidden = true;
    },
    clear() {
      shown.clear();
      list.replaceChildren();
      byId("timeline-empty").hidden = false;
    },
  };
}
