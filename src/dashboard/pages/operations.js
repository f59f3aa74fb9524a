import { describeFailure, gql, runTransition } from "./api.js";
import { byId, h, humanize, replaceChildren } from "./dom.js";
import { exactTime, timeElement } from "./time.js";

const TRANSITIONS = "availableTransitions { operation mutation to permitted }";

const OPERATIONS = `query Operations {
  maintenanceAnnouncements(first: 20, filter: { state: [SCHEDULED, IN_PROGRESS] }) {
    totalCount
    nodes { id uuid name state serviceProvider { customer { name } } maintenanceType scheduledStart scheduledEnd actualStart ${TRANSITIONS} }
  }
  orders(first: 20, filter: { state: [PENDING_PROVIDER] }) {
    totalCount
    nodes {
      id uuid type state created ${TRANSITIONS}
      offering { name } project { name customer { name } } resource { name } createdBy { username }
    }
  }
}`;

/** Upcoming and running maintenance, and orders waiting for the provider, each with the actions the viewer may run. */
export function operationsPanel({ onError }) {
  /** A failed action's answer per object id, shown on its card when the panel is next drawn. */
  const outcomes = new Map();
  let reads = 0;

  async function refresh() {
    const read = ++reads;
    let data;
    try {
      data = await gql(OPERATIONS);
    } catch (error) {
      return onError(error);
    }
    if (read !== reads) return;
    const { maintenanceAnnouncements: announcements, orders } = data;
    byId("maintenance-count").textContent = String(announcements.totalCount);
    byId("orders-count").textContent = String(orders.totalCount);
    replaceChildren(
      byId("maintenance-list"),
      announcements.nodes.length
        ? announcements.nodes.map((announcement) =>
            card("MaintenanceAnnouncement", announcement, [
              h("strong", {}, announcement.name),
              ` ${announcement.serviceProvider.customer.name} · ${humanize(announcement.maintenanceType)}`,
              h("br"),
              h("time", { dateTime: announcement.actualStart ?? announcement.scheduledStart }, exactTime(announcement.actualStart ?? announcement.scheduledStart)),
              " – ",
              h("time", { dateTime: announcement.scheduledEnd }, exactTime(announcement.scheduledEnd)),
            ]),
          )
        : h("li", { className: "hint" }, "No maintenance scheduled or in progress."),
    );
    replaceChildren(
      byId("orders-list"),
      orders.nodes.length
        ? orders.nodes.map((order) =>
            card("Order", order, [
              h("strong", {}, `${humanize(order.type)} ${order.resource?.name || order.offering.name}`),
              ` ${order.offering.name} for ${order.project.name} (${order.project.customer.name})`,
              h("br"),
              `by ${order.createdBy?.username ?? "—"}, `,
              timeElement(order.created),
            ]),
          )
        : h("li", { className: "hint" }, "No order is waiting for the provider."),
    );
    outcomes.clear();
  }

  function card(kind, object, description) {
    const permitted = object.availableTransitions.filter((transition) => transition.permitted);
    const said = outcomes.get(object.id);
    return h(
      "li",
      { dataset: { id: object.id, uuid: object.uuid } },
      h("span", { className: `state state-${object.state}` }, humanize(object.state)),
      h("div", { className: "description" }, description),
      h(
        "div",
        { className: "actions" },
        permitted.map((transition) =>
          h(
            "button",
            { type: "button", dataset: { mutation: transition.mutation }, onclick: () => run(kind, object, transition) },
            humanize(transition.operation),
          ),
        ),
      ),
      said && h("p", { className: said.failed ? "outcome failed" : "outcome", role: "status" }, said.text),
    );
  }

  async function run(kind, object, transition) {
    let said;
    try {
      const result = await runTransition(kind, transition.mutation, { id: object.id });
      said = result.message ? { failed: true, text: describeFailure(result) } : { failed: false, text: `Now ${humanize(result.state)}.` };
    } catch (error) {
      said = { failed: true, text: error.message };
    }
    if (said.failed) outcomes.set(object.id, said);
    const line = byId("operations-outcome");
    line.textContent = `${humanize(transition.operation)}: ${said.text}`;
    line.classList.toggle("failed", said.failed);
    refresh();
  }

  return { refresh };
}
