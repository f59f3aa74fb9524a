import { gql } from "./api.js";
import { byId, h, humanize, replaceChildren } from "./dom.js";
import { timeElement } from "./time.js";

/** The first day of this month (UTC), the billing period usage is reported for. */
function currentPeriod(now = new Date()) {
  return { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
}

const PANELS = `query ProviderPanels($year: Int!, $month: Int!) {
  resources(first: 10, orderBy: CREATED_DESC) {
    totalCount
    nodes { id uuid name state modified offering { name } project { name customer { name } } }
  }
  componentUsageTotals(filter: { billingPeriodYear: $year, billingPeriodMonth: $month }) {
    offering { name } type name measuredUnit usage resourceCount
  }
  notConsented: offeringUsers(first: 10, filter: { consentedToActiveTerms: false }) {
    totalCount
    nodes { uuid user { username fullName } offering { name } }
  }
  activeTerms: offeringTermsOfServices(first: 20, filter: { isActive: true }) {
    nodes { uuid version activatedAt offering { name } }
  }
  agentIdentities(first: 20) {
    totalCount
    nodes {
      uuid name version modified offering { name } compatibility { status message }
      services { uuid name mode state modified }
    }
  }
}`;

const empty = (text) => h("li", { className: "hint" }, text);
const listOr = (items, render, emptyText) => (items.length ? items.map(render) : empty(emptyText));
const count = (id, total) => (byId(id).textContent = String(total));

/** Resources, this period's usage per component, consent to the active terms and the site agents: read-only panels. */
export function providerPanels({ onError }) {
  let reads = 0;

  async function refresh() {
    const read = ++reads;
    const period = currentPeriod();
    let data;
    try {
      data = await gql(PANELS, period);
    } catch (error) {
      return onError(error);
    }
    if (read !== reads) return;
    renderResources(data.resources);
    renderUsage(data.componentUsageTotals, period);
    renderConsent(data.notConsented, data.activeTerms);
    renderAgents(data.agentIdentities);
  }

  function renderResources(resources) {
    count("resources-count", resources.totalCount);
    replaceChildren(
      byId("resources-list"),
      listOr(
        resources.nodes,
        (resource) =>
          h(
            "li",
            { dataset: { uuid: resource.uuid } },
            h("span", { className: `state state-${resource.state}` }, humanize(resource.state)),
            h("div", { className: "description" }, h("strong", {}, resource.name || resource.offering.name),
              ` ${resource.offering.name} · ${resource.project.name} (${resource.project.customer.name}) · changed `, timeElement(resource.modified)),
          ),
        "No resource of your offerings yet.",
      ),
    );
  }

  function renderUsage(totals, period) {
    byId("usage-period").textContent = `${period.year}-${String(period.month).padStart(2, "0")}`;
    const cell = (label, content, className) => h("td", { dataset: { label }, className }, content);
    replaceChildren(
      byId("usage-rows"),
      totals.length
        ? totals.map((total) =>
            h(
              "tr",
              { dataset: { type: total.type } },
              cell("Offering", total.offering.name),
              cell("Component", total.name || total.type),
              cell("Usage", `${Number(total.usage.toFixed(4))} ${total.measuredUnit}`.trim(), "number"),
              cell("Resources", String(total.resourceCount), "number"),
            ),
          )
        : h("tr", {}, h("td", { colSpan: 4, className: "hint" }, "No usage reported for this period yet.")),
    );
  }

  function renderConsent(notConsented, activeTerms) {
    count("consent-count", notConsented.totalCount);
    replaceChildren(
      byId("terms-list"),
      listOr(
        activeTerms.nodes,
        (terms) => h("li", { dataset: { uuid: terms.uuid } }, h("strong", {}, terms.offering.name), ` version ${terms.version || "(none)"}, active since `, timeElement(terms.activatedAt)),
        "No offering has active terms of service.",
      ),
    );
    replaceChildren(
      byId("consent-list"),
      listOr(
        notConsented.nodes,
        (account) => h("li", { dataset: { uuid: account.uuid } }, h("strong", {}, account.user.username), ` ${account.user.fullName ?? ""} · ${account.offering.name}`),
        activeTerms.nodes.length ? "Every offering user you may see has consented to the active version." : "Nobody needs to consent.",
      ),
    );
  }

  function renderAgents(agents) {
    count("agents-count", agents.totalCount);
    replaceChildren(
      byId("agents-list"),
      listOr(
        agents.nodes,
        (agent) =>
          h(
            "li",
            { dataset: { uuid: agent.uuid } },
            h("span", { className: `state agent-${agent.compatibility.status}`, title: agent.compatibility.message }, agent.compatibility.status),
            h(
              "div",
              { className: "description" },
              h("strong", {}, agent.name), ` ${agent.offering.name} · ${agent.version ?? "version unknown"} · last contact `, timeElement(agent.modified),
              h("ul", { className: "services" }, listOr(agent.services, (service) =>
                h("li", { dataset: { uuid: service.uuid } }, h("span", { className: `state state-${service.state}` }, humanize(service.state)), ` ${service.name} (${service.mode}), `, timeElement(service.modified)),
                "No service registered.")),
            ),
          ),
        "No site agent has registered.",
      ),
    );
  }

  return { refresh };
}
