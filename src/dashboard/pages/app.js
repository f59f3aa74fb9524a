import { gql, obtainToken, onUnauthenticated, session } from "./api.js";
import { byId, debounce, h, replaceChildren } from "./dom.js";
import { followEvents, followOfferingUsers, followOperations, openLive } from "./live.js";
import { operationsPanel } from "./operations.js";
import { providerActions } from "./provider-actions.js";
import { providerPanels } from "./provider-panels.js";
import { refreshTimes } from "./time.js";
import { timelinePanel } from "./timeline.js";
import { offeringUsersPanel } from "./users.js";

/** A message to show after the reload that signing out does. */
const NOTICE_KEY = "marketplace-gateway-dashboard-notice";

const OFFERING_USER_EVENTS = ["marketplace_offering_user_created", "marketplace_offering_user_updated", "marketplace_offering_user_deleted"];

/** Sign-ins, logouts and tokens: the viewer's own sessions, not the operations they watch. */
const SESSION_EVENT = /^(auth_|token_)/;

/**
 * The viewer, and where the timeline starts: just before the last 20 offering-user events the viewer may see, and
 * the last 20 others.
 */
const START = `query Start($eventTypes: [String!]) {
  me { id username }
  events(first: 20, orderBy: CREATED_DESC, filter: { eventType: $eventTypes }) { nodes { id eventId } }
  others: events(first: 20, orderBy: CREATED_DESC) { nodes { id eventId } }
}`;

const startAfter = (events) => (events.nodes.length ? Math.min(...events.nodes.map((event) => event.eventId)) - 1 : 0);

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
const panels = providerPanels({ onError: showError });
const refreshUsers = debounce(() => users.refresh(), 50);
const refreshOperations = debounce(() => operations.refresh(), 50);
const refreshPanels = debounce(() => panels.refresh(), 100);
const actions = providerActions({ onDone: () => (refreshOperations(), refreshPanels()) });

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
    panels.refresh();
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
  const client = openLive(token, showStatus);
  followOfferingUsers(client, {
    after: startAfter(viewer.events),
    onChange: (change) => {
      timeline.add(change);
      users.changed(change.offeringUserUuid);
      refreshUsers();
    },
    onGap: () => {
      timeline.clear("offering-user");
      users.reload();
    },
    onError: notify,
  });
  followEvents(client, null, {
    after: startAfter(viewer.others),
    onChange: (event) => {
      if (event.eventType.startsWith("marketplace_offering_user_") || SESSION_EVENT.test(event.eventType)) return;
      timeline.addEvent(event);
      refreshPanels();
    },
    onGap: () => timeline.clear("others"),
    onError: notify,
  });
  followOperations(client, refreshOperations);
  users.reload();
  operations.refresh();
  panels.refresh();
  actions.refresh();
  setInterval(() => refreshTimes(), 15_000);
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
