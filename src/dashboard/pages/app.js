import { gql, obtainToken, onUnauthenticated, session } from "./api.js";
import { byId, debounce, h, replaceChildren } from "./dom.js";
import { followOfferingUsers, followOperations, openLive } from "./live.js";
import { operationsPanel } from "./operations.js";
import { timelinePanel } from "./timeline.js";
import { offeringUsersPanel } from "./users.js";

/** A message to show after the reload that signing out does. */
const NOTICE_KEY = "marketplace-gateway-dashboard-notice";

const OFFERING_USER_EVENTS = ["marketplace_offering_user_created", "marketplace_offering_user_updated", "marketplace_offering_user_deleted"];

/** The viewer, and where the timeline starts: just before the last 20 offering-user events the viewer may see. */
const START = `query Start($eventTypes: [String!]) {
  me { id username }
  events(first: 20, orderBy: CREATED_DESC, filter: { eventType: $eventTypes }) { nodes { id eventId } }
}`;

function notify(message) {
  const notice = byId("notice");
  notice.textContent = message ?? "";
  notice.hidden = !message;
}

const showError = (error) => notify(error.message);

const users = offeringUsersPanel({
  onError: showError,
  onOfferings: (offerings) =>
    replaceChildren(
      byId("offerings"),
      offerings.length ? offerings.map((offering) => h("li", { dataset: { id: offering.id } }, offering.name)) : h("li", { className: "hint" }, "None with offering users"),
    ),
});
const timeline = timelinePanel();
const operations = operationsPanel({ onError: showError });
const refreshUsers = debounce(() => users.refresh(), 50);
const refreshOperations = debounce(() => operations.refresh(), 50);

function signOut(message) {
  session.token = null;
  if (message) sessionStorage.setItem(NOTICE_KEY, message);
  // A fresh page: no socket, panel or cached answer of the previous viewer survives.
  location.reload();
}

onUnauthenticated((error) => signOut(error.message));

function showStatus(status, detail) {
  const badge = byId("live-status");
  badge.dataset.status = status;
  badge.textContent = { connecting: "connecting…", live: "live", offline: "offline, reconnecting…", refused: "refused" }[status];
  if (status === "live" && detail) {
    // Offering-user changes resume where they stopped; the rest is read again.
    users.reload();
    operations.refresh();
  }
  if (status === "refused") signOut(`The gateway refused the token: ${detail}`);
}

async function start(token) {
  let viewer;
  try {
    viewer = await gql(START, { eventTypes: OFFERING_USER_EVENTS }, { token });
  } catch (error) {
    if (error.code !== "UNAUTHENTICATED") notify(error.message);
    return;
  }
  byId("viewer").textContent = viewer.me.username;
  byId("sign-in").hidden = true;
  byId("session").hidden = false;
  byId("board").hidden = false;
  const eventIds = viewer.events.nodes.map((event) => event.eventId);
  const client = openLive(token, showStatus);
  followOfferingUsers(client, {
    after: eventIds.length ? Math.min(...eventIds) - 1 : 0,
    onChange: (change) => {
      timeline.add(change);
      users.changed(change.offeringUserUuid);
      refreshUsers();
    },
    onGap: () => {
      timeline.clear();
      users.reload();
    },
    onError: notify,
  });
  followOperations(client, refreshOperations);
  users.reload();
  operations.refresh();
}

function showSignIn() {
  byId("sign-in").hidden = false;
  byId("password-form").username.focus();
}

async function signIn(event, tokenOf) {
  event.preventDefault();
  const form = event.currentTarget;
  const button = form.querySelector("button");
  button.disabled = true;
  notify(null);
  try {
    const token = await tokenOf(form);
    session.token = token;
    await start(token);
  } catch (error) {
    notify(error.message);
  } finally {
    button.disabled = false;
  }
}

byId("password-form").addEventListener("submit", (event) => signIn(event, (form) => obtainToken(form.username.value, form.password.value)));
byId("token-form").addEventListener("submit", (event) =>
  signIn(event, async (form) => form.token.value.trim().replace(/^Token\s+/i, "")),
);
byId("sign-out").addEventListener("click", () => signOut());

notify(sessionStorage.getItem(NOTICE_KEY));
sessionStorage.removeItem(NOTICE_KEY);
if (session.token) start(session.token);
else showSignIn();
