import type { RouteSpec } from "./route.ts";

/** A GraphQL fragment whose aliases are Waldur's field names: the selection is the serializer. */
export interface RestFragment {
  name: string;
  text: string;
}

export const restFragment = (name: string, type: string, body: string): RestFragment => ({ name, text: `fragment ${name} on ${type} {${body}}` });

/**
 * What a domain serves over REST: its routes, in matching order (static segments before `:uuid`), and the serializers
 * it declares. A route may spread another domain's serializer: the fragments of every surface served are one set.
 */
export interface RestSurface {
  routes: RouteSpec[];
  fragments: RestFragment[];
}

/** Surfaces served as one: their routes in the order given, and all their serializers, each name declared once. */
export function joinSurfaces(surfaces: RestSurface[]): RestSurface {
  const fragments = surfaces.flatMap((surface) => surface.fragments);
  const names = fragments.map((fragment) => fragment.name);
  const twice = names.filter((name, index) => names.indexOf(name) !== index);
  if (twice.length) throw new Error(`REST fragments declared twice: ${twice.join(", ")}`);
  return { routes: surfaces.flatMap((surface) => surface.routes), fragments };
}
