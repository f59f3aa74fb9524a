/**
 * The app's pub/sub topics and their payloads (see pubsub.ts). Each domain adds its own topic beside its payload:
 *
 *     declare module "./topics.ts" { interface Topics { orderChanged: OrderChangedPayload } }
 *
 * so the registry is whole without this layer, or any layer under the domains, importing them.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the domains' declarations
export interface Topics {}
