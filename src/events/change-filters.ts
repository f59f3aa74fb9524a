import { toHex } from "../platform/ids.ts";

/** A subscription argument naming an object by uuid, and the payload field holding that object's id. */
export type IdArgument<P> = [uuid: unknown, idOf: (payload: P) => string];

/**
 * The narrowing a change subscription's arguments ask for, decided without the database: every uuid argument given
 * must name the object the payload's field names, and the state (when states are given) must be one of them.
 */
export function argumentFilter<P>(ids: Array<IdArgument<P>>, states: readonly unknown[] | null | undefined, stateOf: (payload: P) => unknown) {
  const wanted = ids.flatMap(([uuid, idOf]) => (uuid ? [{ id: toHex(String(uuid)), idOf }] : []));
  return (payload: P) => wanted.every(({ id, idOf }) => toHex(idOf(payload)) === id) && (!states?.length || states.includes(stateOf(payload)));
}
