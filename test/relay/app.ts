// A small Relay app against a running gateway (scripts/relay-check.sh): a @refetchable fragment paged through a
// @connection with a filter argument, a subscription that updates the normalised store, and a delete by global id
// with @deleteRecord. Every step checks the store, not only the answers; any mismatch exits 1.
import assert from "node:assert/strict";
import { createClient } from "graphql-ws";
import {
  commitLocalUpdate,
  commitMutation,
  ConnectionHandler,
  Environment,
  fetchQuery,
  type GraphQLResponse,
  Network,
  Observable,
  RecordSource,
  requestSubscription,
  Store,
} from "relay-runtime";
import WebSocket from "ws";
import page from "./__generated__/appOfferingUsersQuery.graphql.ts";
import nextPage from "./__generated__/appOfferingUsersPaginationQuery.graphql.ts";
import changed, { type appOfferingUserChangedSubscription } from "./__generated__/appOfferingUserChangedSubscription.graphql.ts";
import remove, { type appDeleteOfferingUserMutation } from "./__generated__/appDeleteOfferingUserMutation.graphql.ts";

const base = process.env.GATEWAY_URL ?? "http://localhost:8000";
const REQUESTED = ["CREATION_REQUESTED"] as const;

async function login(): Promise<string> {
  const body = new URLSearchParams({ username: "staff", password: "demo-password" });
  const res = await fetch(`${base}/api-auth/password/`, { method: "POST", body });
  assert.equal(res.status, 200, "demo login");
  return ((await res.json()) as { token: string }).token;
}

function environment(token: string) {
  const headers = { authorization: `Token ${token}`, "content-type": "application/json" };
  const socket = createClient({ url: `${base.replace(/^http/, "ws")}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Token ${token}` } });
  const network = Network.create(
    async (operation, variables) => {
      const res = await fetch(`${base}/graphql`, { method: "POST", headers, body: JSON.stringify({ query: operation.text, variables }) });
      const answer = (await res.json()) as GraphQLResponse & { errors?: unknown[] };
      assert.equal(answer.errors, undefined, `${operation.name}: ${JSON.stringify(answer.errors)}`);
      return answer;
    },
    (operation, variables) =>
      Observable.create((sink) => socket.subscribe({ query: operation.text!, variables }, { next: (v) => sink.next(v as GraphQLResponse), error: sink.error, complete: sink.complete })),
  );
  return { environment: new Environment({ network, store: new Store(new RecordSource()) }), socket };
}

/** The ids of the connection's edges, read from the store as a component would. */
function connectionIds(env: Environment): string[] {
  let ids: string[] = [];
  commitLocalUpdate(env, (store) => {
    const connection = ConnectionHandler.getConnection(store.getRoot(), "appOfferingUsers_offeringUsers", { filter: { state: REQUESTED } });
    ids = (connection?.getLinkedRecords("edges") ?? []).map((edge) => String(edge?.getLinkedRecord("node")?.getDataID()));
  });
  return ids;
}

const token = await login();
const { environment: env, socket } = environment(token);

// A first page, then the next through the fragment's refetch query: one list in the store, nothing repeated.
const first = await fetchQuery(env, page, { state: [...REQUESTED], first: 2 }).toPromise();
assert.ok(first);
const [firstIds] = [connectionIds(env)];
assert.equal(firstIds.length, 2, "first page");
let endCursor: string | null = null;
commitLocalUpdate(env, (store) => {
  const connection = ConnectionHandler.getConnection(store.getRoot(), "appOfferingUsers_offeringUsers", { filter: { state: REQUESTED } });
  endCursor = (connection?.getLinkedRecord("pageInfo")?.getValue("endCursor") as string | null) ?? null;
});
await fetchQuery(env, nextPage, { state: [...REQUESTED], first: 2, after: endCursor }).toPromise();
const allIds = connectionIds(env);
assert.equal(new Set(allIds).size, allIds.length, "no edge repeated");
assert.deepEqual(allIds.slice(0, 2), firstIds, "the next page is appended");
assert.ok(allIds.length >= 3, "the second page arrived");

// A change over REST reaches the subscription, and the store's record follows it.
const moved = new Promise<string>((resolve, reject) => {
  requestSubscription<appOfferingUserChangedSubscription>(env, {
    subscription: changed,
    variables: {},
    onNext: (data) => data?.offeringUserChanged.offeringUser && resolve(data.offeringUserChanged.offeringUser.id),
    onError: reject,
  });
});
await new Promise((resolve) => setTimeout(resolve, 500));
const target = allIds[0];
// REST names the record by its uuid, read from the store; the global id stays opaque.
const uuid = env.getStore().getSource().get(target)?.uuid;
assert.equal(typeof uuid, "string", "the store holds the record's uuid");
const transition = await fetch(`${base}/api/marketplace-offering-users/${uuid}/begin_creating/`, { method: "POST", headers: { authorization: `Token ${token}` } });
assert.equal(transition.status, 200, "REST transition");
assert.equal(await moved, target, "the subscription names the record");
assert.equal(env.getStore().getSource().get(target)?.state, "CREATING", "the store follows the change");

// A delete by the record's global id (the store's data id, as it came) evicts it from the store.
const victim = allIds.at(-1)!;
const deleteById = (id: string) =>
  new Promise<appDeleteOfferingUserMutation["response"]["deleteOfferingUser"]>((resolve, reject) =>
    commitMutation<appDeleteOfferingUserMutation>(env, {
      mutation: remove,
      variables: { input: { id } },
      onCompleted: (data) => resolve(data.deleteOfferingUser),
      onError: reject,
    }),
  );
const deleted = await deleteById(victim);
assert.equal(deleted?.__typename, "Deletion", `the delete: ${JSON.stringify(deleted)}`);
assert.equal(env.getStore().getSource().get(victim), null, "@deleteRecord evicts it");
// The same id again names nothing: the typed NotFoundError, not an error in errors[].
assert.equal((await deleteById(victim))?.__typename, "NotFoundError", "a deleted record's id is not found");

await socket.dispose();
console.log(`relay: ${allIds.length} offering users paged, a change followed, one deleted — all through the store`);
