import { describeFailure, gql, runTransition } from "./api.js";
import { byId, h, humanize, replaceChildren } from "./dom.js";
import { exactTime, timeElement } from "./time.js";

/** Mutations that also store the service provider's comment and its URL. */
const TAKES_COMMENT = new Set(["setPendingAccountLinkingOfferingUser", "setPendingAdditionalValidationOfferingUser"]);

const DETAIL = `query OfferingUser($uuid: ID!) {
  offeringUser(uuid: $uuid) {
    id uuid username user { username fullName email } offering { name } state modified stateChangedAt stuck stuckSince
    projects { name customer { name } }
    serviceProviderComment serviceProviderCommentUrl
    availableTransitions { operation mutation to permitted }
  }
}`;

/** The selected offering user: what it is, how long it has waited, and the transitions the viewer may run on it. */
export function offeringUserDetail({ onError }) {
  const panel = byId("detail");
  let selected = null;
  /** What the last action on the selected user answered, kept while live changes re-read it. */
  let outcome = null;
  /** Comment fields as typed, kept while live changes re-read the user. */
  let draft = {};

  async function read() {
    if (!selected) return replaceChildren(panel, h("p", { className: "hint" }, "Select an offering user to see what can be done."));
    let user;
    try {
      user = (await gql(DETAIL, { uuid: selected })).offeringUser;
    } catch (error) {
      return onError(error);
    }
    if (!user) return replaceChildren(panel, h("p", { className: "hint" }, "That offering user is gone."));
    if (user.uuid === selected) replaceChildren(panel, render(user));
  }

  function render(user) {
    const permitted = user.availableTransitions.filter((transition) => transition.permitted);
    const field = (name, label, value, props) =>
      h("label", {}, `${label} `, h("input", { name, value: draft[name] ?? value, oninput: (event) => (draft[name] = event.target.value), ...props }));
    const comment = field("comment", "Comment", user.serviceProviderComment, { placeholder: "Comment for the user" });
    const commentUrl = field("commentUrl", "Comment URL", user.serviceProviderCommentUrl, { type: "url", placeholder: "https://…" });
    const said = h("p", { className: outcome?.failed ? "outcome failed" : "outcome", role: "status" }, outcome?.text ?? "");
    const run = async (transition) => {
      const input = { id: user.id };
      const takesComment = TAKES_COMMENT.has(transition.mutation);
      if (takesComment) Object.assign(input, { comment: comment.lastChild.value, commentUrl: commentUrl.lastChild.value });
      try {
        const result = await runTransition("OfferingUser", transition.mutation, input, { takesFields: takesComment });
        const failed = result.__typename !== "OfferingUser";
        outcome = { failed, text: failed ? describeFailure(result) : `Now ${humanize(result.state)}.` };
        if (!failed) draft = {};
      } catch (error) {
        outcome = { failed: true, text: error.message };
      }
      read();
    };
    const projects = user.projects.map((project) => `${project.name} (${project.customer.name})`).join(", ");
    return [
      h("h3", {}, `${user.user.username} in ${user.offering.name}`),
      h(
        "dl",
        {},
        h("dt", {}, "State"),
        h("dd", {}, h("span", { className: `state state-${user.state}` }, humanize(user.state)), " for ", timeElement(user.stateChangedAt, { as: "duration" }),
          user.stuck && h("span", { className: "stuck", title: `Stuck since ${exactTime(user.stuckSince)}` }, " stuck")),
        h("dt", {}, "Name"), h("dd", {}, `${user.user.fullName ?? ""} ${user.user.email ? `<${user.user.email}>` : ""}`),
        h("dt", {}, "Account"), h("dd", {}, user.username ?? "—"),
        h("dt", {}, "Projects"), h("dd", {}, projects || "—"),
        h("dt", {}, "Modified"), h("dd", {}, timeElement(user.modified)),
      ),
      permitted.some((transition) => TAKES_COMMENT.has(transition.mutation)) && h("div", { className: "comment-fields" }, comment, commentUrl),
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
    get selected() {
      return selected;
    },
    select(uuid) {
      selected = uuid;
      outcome = null;
      draft = {};
      read();
    },
    read,
  };
}
