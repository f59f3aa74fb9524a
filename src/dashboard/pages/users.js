import { gql } from "./api.js";
import { readAddress, writeAddress } from "./address.js";
import { byId, debounce, h, humanize, replaceChildren } from "./dom.js";
import { exactTime, timeElement } from "./time.js";
import { offeringUserDetail } from "./user-detail.js";

const PAGE_SIZE = 15;

const COUNTS = `query Counts {
  offeringUserCounts {
    states { state count }
    offerings { offeringUuid offering { id uuid name } states { state count } }
  }
}`;

const USERS = `query OfferingUsers($filter: OfferingUserFilter, $orderBy: [OfferingUserOrder!], $first: Int, $after: String) {
  offeringUsers(filter: $filter, orderBy: $orderBy, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes {
      id uuid username user { username fullName } offering { name } state modified stateChangedAt stuck stuckSince
      projects { name customer { name } }
    }
  }
}`;

/** The filters and their values when the address names none. */
const DEFAULTS = { state: "", offering: "", q: "", stuck: "", sort: "" };

/** The sortable columns: the collection's orderings (OfferingUserOrder without its direction). */
const COLUMNS = [
  { label: "User" },
  { label: "Name", order: "USER_LAST_NAME" },
  { label: "Account", order: "USERNAME" },
  { label: "Project" },
  { label: "Organisation" },
  { label: "Offering" },
  { label: "State" },
  // Sorted by the moment the state was entered, so the durations shown run the other way.
  { label: "In state", order: "STATE_CHANGED", inverse: true, title: "Time since the record entered its state" },
  { label: "Modified", order: "MODIFIED" },
];

/** Counts, the searchable, sortable, paged table and the selected user's detail; `refresh()` re-reads them. */
export function offeringUsersPanel({ onOfferings, onError }) {
  const filter = readAddress(DEFAULTS);
  /** `after` cursors of the pages before the current one, and the current one's. */
  const pages = { previous: [], after: null, next: null };
  const detail = offeringUserDetail({ onError });
  let counts = null;
  let reads = 0;
  let countReads = 0;

  const stateSelect = byId("filter-state");
  const offeringSelect = byId("filter-offering");
  const search = byId("filter-query");
  const stuckOnly = byId("filter-stuck");
  search.value = filter.q;
  stuckOnly.checked = filter.stuck === "true";
  stateSelect.addEventListener("change", () => applyFilter({ state: stateSelect.value }));
  offeringSelect.addEventListener("change", () => applyFilter({ offering: offeringSelect.value }));
  const searchNow = debounce(() => applyFilter({ q: search.value.trim() }), 250);
  search.addEventListener("input", searchNow);
  stuckOnly.addEventListener("change", () => applyFilter({ stuck: stuckOnly.checked ? "true" : "" }));
  byId("page-next").addEventListener("click", () => {
    pages.previous.push(pages.after);
    pages.after = pages.next;
    readUsers();
  });
  byId("page-previous").addEventListener("click", () => {
    pages.after = pages.previous.pop() ?? null;
    readUsers();
  });

  function applyFilter(change) {
    Object.assign(filter, change);
    writeAddress(filter, DEFAULTS);
    stateSelect.value = filter.state;
    offeringSelect.value = filter.offering;
    Object.assign(pages, { previous: [], after: null, next: null });
    renderHeader();
    renderCounts();
    readUsers();
  }

  /** ASC first; the chosen column again turns its direction. */
  function sortBy(order) {
    const [current, direction] = filter.sort.split(/_(?=ASC$|DESC$)/);
    applyFilter({ sort: current === order && direction === "ASC" ? `${order}_DESC` : `${order}_ASC` });
  }

  function renderHeader() {
    const [current, direction] = filter.sort.split(/_(?=ASC$|DESC$)/);
    replaceChildren(
      byId("users-head"),
      h(
        "tr",
        {},
        COLUMNS.map((column) => {
          if (!column.order) return h("th", { scope: "col" }, column.label);
          const sorted = column.order === current;
          const ascending = (direction === "ASC") !== Boolean(column.inverse);
          const ariaSort = sorted ? (ascending ? "ascending" : "descending") : "none";
          return h(
            "th",
            { scope: "col", "aria-sort": ariaSort, title: column.title },
            h("button", { type: "button", className: "sort", dataset: { order: column.order }, onclick: () => sortBy(column.order) },
              column.label, h("span", { "aria-hidden": "true" }, sorted ? (ascending ? " ▲" : " ▼") : " ↕")),
          );
        }),
      ),
    );
  }

  async function readCounts() {
    const read = ++countReads;
    let answer;
    try {
      answer = (await gql(COUNTS)).offeringUserCounts;
    } catch (error) {
      return onError(error);
    }
    if (read !== countReads) return;
    counts = answer;
    onOfferings(counts.offerings.map((each) => each.offering).filter(Boolean));
    replaceChildren(
      offeringSelect,
      h("option", { value: "" }, "All offerings"),
      counts.offerings.map((each) => h("option", { value: each.offeringUuid }, each.offering?.name ?? each.offeringUuid)),
    );
    offeringSelect.value = filter.offering;
    if (stateSelect.options.length <= 1) stateSelect.append(...counts.states.map(({ state }) => h("option", { value: state }, humanize(state))));
    stateSelect.value = filter.state;
    renderCounts();
  }

  function renderCounts() {
    if (!counts) return;
    const scoped = filter.offering ? counts.offerings.find((each) => each.offeringUuid === filter.offering)?.states ?? [] : counts.states;
    const total = scoped.reduce((sum, { count }) => sum + count, 0);
    const chosen = (state) => ({ "aria-pressed": String(filter.state === state) });
    replaceChildren(
      byId("counts"),
      h("button", { type: "button", className: filter.state ? "count" : "count chosen", ...chosen(""), onclick: () => applyFilter({ state: "" }) }, h("strong", {}, String(total)), " all"),
      scoped.map(({ state, count }) =>
        h(
          "button",
          { type: "button", className: `count${filter.state === state ? " chosen" : ""}${count ? "" : " zero"}`, ...chosen(state), dataset: { state }, onclick: () => applyFilter({ state }) },
          h("strong", {}, String(count)),
          ` ${humanize(state)}`,
        ),
      ),
    );
  }

  async function readUsers() {
    const read = ++reads;
    const variables = {
      filter: {
        ...(filter.state && { state: [filter.state] }),
        ...(filter.offering && { offeringUuid: [filter.offering] }),
        ...(filter.q && { query: filter.q }),
        ...(filter.stuck && { stuck: true }),
      },
      orderBy: filter.sort ? [filter.sort] : null,
      first: PAGE_SIZE,
      after: pages.after,
    };
    let connection;
    try {
      connection = (await gql(USERS, variables)).offeringUsers;
    } catch (error) {
      return onError(error);
    }
    if (read !== reads) return;
    pages.next = connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null;
    byId("page-next").disabled = !pages.next;
    byId("page-previous").disabled = pages.previous.length === 0;
    const first = pages.previous.length * PAGE_SIZE;
    byId("page-position").textContent = connection.totalCount
      ? `${first + 1}–${first + connection.nodes.length} of ${connection.totalCount}`
      : filter.q || filter.stuck || filter.state || filter.offering
        ? "No offering user matches these filters."
        : "No offering users yet.";
    replaceChildren(byId("users-rows"), connection.nodes.map(row));
  }

  const cell = (label, ...content) => h("td", { dataset: { label } }, ...content);

  const row = (offeringUser) =>
    h(
      "tr",
      {
        dataset: { uuid: offeringUser.uuid, id: offeringUser.id, stuck: String(offeringUser.stuck) },
        className: detail.selected === offeringUser.uuid ? "selected" : "",
        onclick: () => select(offeringUser.uuid),
      },
      cell("User", h("button", { type: "button", className: "link" }, offeringUser.user.username)),
      cell("Name", offeringUser.user.fullName ?? ""),
      cell("Account", offeringUser.username ?? ""),
      cell("Project", offeringUser.projects.map((project) => project.name).join(", ")),
      cell("Organisation", [...new Set(offeringUser.projects.map((project) => project.customer.name))].join(", ")),
      cell("Offering", offeringUser.offering.name),
      cell(
        "State",
        h("span", { className: `state state-${offeringUser.state}` }, humanize(offeringUser.state)),
        offeringUser.stuck && h("span", { className: "stuck", title: `Stuck since ${exactTime(offeringUser.stuckSince)}` }, "stuck"),
      ),
      cell("In state", timeElement(offeringUser.stateChangedAt, { as: "duration" })),
      cell("Modified", timeElement(offeringUser.modified)),
    );

  function select(uuid) {
    for (const tr of byId("users-rows").children) tr.classList.toggle("selected", tr.dataset.uuid === uuid);
    detail.select(uuid);
  }

  renderHeader();
  return {
    refresh() {
      readCounts();
      readUsers();
    },
    /** Everything, the selected user's detail included (after signing in or reconnecting). */
    reload() {
      readCounts();
      readUsers();
      detail.read();
    },
    /** A change arrived for this offering user: its detail is re-read if it is the one shown. */
    changed(uuid) {
      if (uuid === detail.selected) detail.read();
    },
  };
}
