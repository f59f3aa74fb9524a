import { fetchJson } from "./load.ts";
import type { OfferingUserOperation } from "../src/offering-users/transitions.ts";

/**
 * A cycle every offering user can run forever, one committed transaction and one event per step:
 * Requested → Creating → OK → Requested deletion → Deleting → Error deleting → OK → …
 */
const NEXT: Record<string, { operation: OfferingUserOperation; to: string }> = {
  Requested: { operation: "begin_creating", to: "Creating" },
  "Error creating": { operation: "begin_creating", to: "Creating" },
  Creating: { operation: "set_ok", to: "OK" },
  "Pending account linking": { operation: "set_validation_complete", to: "OK" },
  "Pending additional validation": { operation: "set_validation_complete", to: "OK" },
  OK: { operation: "request_deletion", to: "Requested deletion" },
  "Requested deletion": { operation: "set_deleting", to: "Deleting" },
  Deleting: { operation: "set_error_deleting", to: "Error deleting" },
  "Error deleting": { operation: "set_ok", to: "OK" },
};

/** An offering user as the load generator last saw it; shared by the clients that work on it. */
export interface Tracked {
  uuid: string;
  state: string;
}

/** The offering users that can take part in the cycle, with their current states. */
export async function cyclingOfferingUsers(baseUrl: string, token: string): Promise<Tracked[]> {
  const all = await fetchJson(`${baseUrl}/api/marketplace-offering-users/?page_size=300`, { headers: auth(token) });
  return (all.body as Array<{ uuid: string; state: string }>).filter((row) => NEXT[row.state]).map(({ uuid, state }) => ({ uuid, state }));
}

/** The state `user`'s next step leads to (its label, as REST and subscriptions' stateLabel show it). */
export const nextStateOf = (user: Tracked) => NEXT[user.state].to;

/** `user`'s next step: the operation, and the state (label) a 200 moves it to. */
export const nextOperationOf = (user: Tracked) => NEXT[user.state];

/** The Authorization header of `token`. */
export const auth = (token: string) => ({ authorization: `Token ${token}` });
