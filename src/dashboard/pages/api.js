/** The gateway's public GraphQL API over HTTP, with the token kept for this browser tab only. */

const TOKEN_KEY = "marketplace-gateway-dashboard-token";

export const session = {
  get token() {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  set token(value) {
    if (value) sessionStorage.setItem(TOKEN_KEY, value);
    else sessionStorage.removeItem(TOKEN_KEY);
  },
};

/** A request that failed as a whole (`errors[]`, HTTP or network); `code` is `extensions.code` when there is one. */
export class RequestError extends Error {
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}

const listeners = new Set();
/** Called with the error when the server refuses the token, so the page can sign out. */
export const onUnauthenticated = (listener) => listeners.add(listener);

/** Runs one operation; answers `data`, or throws RequestError with the first error's message. */
export async function gql(query, variables = {}, { token = session.token } = {}) {
  const headers = { "Content-Type": "application/json", Accept: "application/graphql-response+json, application/json" };
  if (token) headers.Authorization = `Token ${token}`;
  let response;
  try {
    response = await fetch("/graphql", { method: "POST", headers, body: JSON.stringify({ query, variables }) });
  } catch (error) {
    throw new RequestError(`The gateway cannot be reached (${error.message}).`, "NETWORK");
  }
  const body = await response.json().catch(() => null);
  const first = body?.errors?.[0];
  if (first) {
    const error = new RequestError(first.message, first.extensions?.code);
    if (error.code === "UNAUTHENTICATED" && token) for (const listener of listeners) listener(error);
    throw error;
  }
  if (!response.ok || !body?.data) throw new RequestError(body?.detail ?? `HTTP ${response.status}`, `HTTP_${response.status}`);
  return body.data;
}

/** Every typed failure's message; a union lists only the failures its mutation can produce, so the rest is per mutation. */
const FAILURE = "__typename ... on Error { message code }";
const FIELD_ERRORS = "... on ValidationError { fields { path message } }";

/** A username and password traded for a token (the `obtainToken` mutation); throws with the typed failure's message. */
export async function obtainToken(username, password) {
  const data = await gql(
    `mutation ObtainToken($input: ObtainTokenInput!) { obtainToken(input: $input) { ... on AuthToken { token } ${FAILURE} } }`,
    { input: { username, password } },
    { token: null },
  );
  const result = data.obtainToken;
  if (!result?.token) throw new RequestError(result?.message ?? "No token was issued.", result?.code);
  return result.token;
}

/** What each kind of object's transition mutations answer on success, and how its state machine refuses one. */
const SUCCESS = {
  OfferingUser: "... on OfferingUser { id state } ... on OfferingUserTransitionError { currentState allowedFrom }",
  Order: "... on OrderActionResult { state order { id state } } ... on OrderTransitionError { currentState allowedFrom }",
  MaintenanceAnnouncement: "... on MaintenanceAnnouncement { id state } ... on MaintenanceTransitionError { currentState allowedFrom }",
};

/**
 * Runs an `availableTransitions` entry: `mutation` is the mutation's name, `input` its input object (`takesFields`:
 * more than the id, which may be refused field by field). Answers the union's member: the new state
 * (`{ __typename, state }`) or a typed failure (`{ __typename, message, fields, … }`).
 */
export async function runTransition(kind, mutation, input, { takesFields = false } = {}) {
  if (!/^[a-z][A-Za-z]*$/.test(mutation) || !SUCCESS[kind]) throw new RequestError(`Unknown action ${mutation}.`);
  const inputType = `${mutation[0].toUpperCase()}${mutation.slice(1)}Input`;
  const failures = takesFields ? `${FAILURE} ${FIELD_ERRORS}` : FAILURE;
  const data = await gql(`mutation Transition($input: ${inputType}!) { result: ${mutation}(input: $input) { ${SUCCESS[kind]} ${failures} } }`, { input });
  return data.result;
}

/** A typed failure as one line: its message, the fields a ValidationError names, the states an action needs. */
export function describeFailure(result) {
  const parts = [`${result.__typename}: ${result.message}`];
  for (const field of result.fields ?? []) parts.push(`${field.path}: ${field.message}`);
  if (result.currentState) parts.push(`now ${result.currentState}, allowed from ${result.allowedFrom.join(", ")}`);
  return parts.join(" — ");
}
