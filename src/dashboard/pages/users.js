import { describeFailure, gql, runTransition } from "./api.js";
import { byId, formatTime, h, humanize, replaceChildren } from "./dom.js";

const PAGE_SIZE = 15;

/** Mutations that also store the service provider's comment and its URL. */
const TAKES_COMMENT = new Set(["setPendingAccountLinkingOfferingUser", "setPendingAdditionalValidationOfferingUser"]);

const COUNTS = `query Counts {
  offeringUserCounts {
    states { state count }
    offerings { offeringUuid offering { id uuid name } states { state count } }
  }
}`;

const USERS = `query OfferingUsers($filter: OfferingUserFilter, $first: Int, $after: String) {
  offeringUsers(filter: $filter, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { id uuid username user { username fullName } offering { name } state modified }
  }
}`;

const DETAIL = `query OfferingUser($uuid: ID!) {
  offeringUser(uuid: $uuid) {
    id uuid username user { username fullName email } offering { name } state modified
    serviceProviderComment serviceProviderCommentUrl
    availableTransitions { operation mutation to permitted }
  }
}`;

/** Counts, the filterable paged table and the selected user's actions; `refresh()` re-reads all three. */
export function offeringUsersPanel({ onOfferings, onError }) {
  const filter = { state: "", offering: "" };
  /** `after` cursors of the pages before the current one, and the current one's. */
  const pages = { previous: [], after: null, next: null };
  let selected = null;
  /** What the last action on the selected user answered, kept while live changes re-read it. */
  let outcome = null;
  /** Comment fields as typed, kept while live changes re-read the user. */
  let draft = {};
  let counts = null;
  let reads = 0;
  let countReads = 0;

  const stateSelect = byId("filter-state");
  const offeringSelect = byId("filter-offering");
  stateSelect.addEventListener("change", () => applyFilter({ state: stateSelect.value }));
  offeringSelect.addEventListener("change", () => applyFilter({ offering: offeringSelect.value }));
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
    stateSelect.value = filter.state;
    offeringSelect.value = filter.offering;
    Object.assign(pages, { previous: [], after: null, next: null });
    renderCounts();
    readUsers();
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
    const chosen = offeringSelect.value;
    replaceChildren(
      offeringSelect,
      h("option", { value: "" }, "All offerings"),
      counts.offerings.map((each) => h("option", { value: each.offeringUuid }, each.offering?.name ?? each.offeringUuid)),
    );
    offeringSelect.value = chosen;
    if (stateSelect.options.length <= 1) stateSelect.append(...counts.states.map(({ state }) => h("option", { value: state }, humanize(state))));
    renderCounts();
  }

  function renderCounts() {
    if (!counts) return;
    const scoped = filter.offering ? counts.offerings.find((each) => each.offeringUuid === filter.offering)?.states ?? [] : counts.states;
    const total = scoped.reduce((sum, { count }) => sum + count, 0);
    replaceChildren(
      byId("counts"),
      h("button", { type: "button", className: filter.state ? "count" : "count chosen", onclick: () => applyFilter({ state: "" }) }, h("strong", {}, String(total)), " all"),
      scoped.map(({ state, count }) =>
        h(
          "button",
          { type: "button", className: `count${filter.state === state ? " chosen" : ""}${count ? "" : " zero"}`, dataset: { state }, onclick: () => applyFilter({ state }) },
          h("strong", {}, String(count)),
          ` ${humanize(state)}`,
        ),
      ),
    );
  }

  async function readUsers() {
    const read = ++reads;
    const variables = {
      filter: { ...(filter.state && { state: [filter.state] }), ...(filter.offering && { offeringUuid: [filter.offering] }) },
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
      : "No offering users";
    replaceChildren(byId("users-rows"), connection.nodes.map(row));
  }

  const row = (offeringUser) =>
    h(
      "tr",
      { dataset: { uuid: offeringUser.uuid, id: offeringUser.id }, className: selected === offeringUser.uuid ? "selected" : "", onclick: () => select(offeringUser.uuid) },
      h("td", {}, h("button", { type: "button", className: "link" }, offeringUser.user.username)),
      h("td", {}, offeringUser.user.fullName ?? ""),
      h("td", {}, offeringUser.offering.name),
      h("td", {}, offeringUser.username ?? ""),
      h("td", {}, h("span", { className: `state state-${offeringUser.state}` }, humanize(offeringUser.state))),
      h("td", {}, formatTime(offeringUser.modified)),
    );

  function select(uuid) {
    selected = uuid;
    outcome = null;
    draft = {};
    for (const tr of byId("users-rows").children) tr.classList.toggle("selected", tr.dataset.uuid === uuid);
    readDetail();
  }

  async function readDetail() {
    const panel = byId("detail");
    if (!selected) return replaceChildren(panel, h("p", { className: "hint" }, "Select an offering user to see what can be done."));
    let user;
    try {
      user = (await gql(DETAIL, { uuid: selected })).offeringUser;
    } catch (error) {
      return onError(error);
    }
    if (!user) return replaceChildren(panel, h("p", { className: "hint" }, "That offering user is gone."));
    if (user.uuid === selected) replaceChildren(panel, detail(user));
  }

  function detail(user) {
    const permitted = user.availableTransitions.filter((transition) => transition.permitted);
    const field = (name, value, props) =>
      h("input", { name, value: draft[name] ?? value, oninput: (event) => (draft[name] = event.target.value), ...props });
    const comment = field("comment", user.serviceProviderComment, { placeholder: "Comment for the user" });
    const commentUrl = field("commentUrl", user.serviceProviderCommentUrl, { type: "url", placeholder: "https://…" });
    const said = h("p", { className: outcome?.failed ? "outcome failed" : "outcome", role: "status" }, outcome?.text ?? "");
    const run = async (transition) => {
      const input = { id: user.id };
      if (TAKES_COMMENT.has(transition.mutation)) Object.assign(input, { comment: comment.value, commentUrl: commentUrl.value });
      try {
        const result = await runTransition("OfferingUser", transition.mutation, input, { takesFields: TAKES_COMMENT.has(transition.mutation) });
        const failed = result.__typename !== "OfferingUser";
        outcome = { failed, text: failed ? describeFailure(result) : `Now ${humanize(result.state)}.` };
        if (!failed) draft = {};
      } catch (error) {
        outcome = { failed: true, text: error.message };
      }
      readDetail();
    };
    return [
      h("h3", {}, `${user.user.username} in ${user.offering.name}`),
      h(
        "dl",
        {},
        h("dt", {}, "State"), h("dd", {}, h("span", { className: `state state-${user.state}` }, humanize(user.state))),
        h("dt", {}, "Name"), h("dd", {}, `${user.user.fullName ?? ""} ${user.user.email ? `<${user.user.email}>` : ""}`),
        h("dt", {}, "Account"), h("dd", {}, user.username ?? "—"),
        h("dt", {}, "Modified"), h("dd", {}, formatTime(user.modified)),
      ),
      permitted.some((transition) => TAKES_COMMENT.has(transition.mutation)) &&
        h("div", { className: "comment-fields" }, h("label", {}, "Comment ", comment), h("label", {}, "Comment URL ", commentUrl)),
      h(
        "div",
        { className: "actions" },
        permitted.length
          ? permitted.map((transition) =>
              h("button", { type: "button", dataset: { mutation: transition.mutation }, onclick: () => run(transition) }, `${humanize(transition.operation)} → ${humanize(transition.to)}`),
            )
          : h("span", { className: "hint" }, "No action you may take in this state."),
      ),
      said,
    ];
  }

  return {
    refresh() {
      readCounts();
      readUsers();
    },
    /** Everything, the selected user's detail included (after signing in or reconnecting). */
    reload() {
      readCounts();
      readUsers();
      readDetail();
    },
    /** A change arrived for this offering user: its detail is re-read if it is the one shown. */
    changed(uuid) {
      if (uuid === selected) readDetail();
    },
  };
}
