import type { RestSurface } from "../rest-adapter/surface.ts";
import type { TallyTable } from "./platform/database/tallies.ts";
import type { Topics } from "./platform/messaging/topics.ts";

/**
 * What a domain contributes to the app, declared once in its `module.ts`. Importing the module registers the domain's
 * GraphQL types and fields on the builder (the module imports its `schema*.ts` files for that); src/modules.ts lists
 * the modules, and the REST routes, the schema and the tally tables derive from that list.
 */
export interface DomainModule {
  /** The domain's folder under src/. */
  readonly name: string;
  /** Its REST surfaces (src/<domain>/rest*.ts), in matching order. */
  readonly rest: readonly RestSurface[];
  /** The tally tables its triggers write, which the gateway folds. */
  readonly tallies: readonly TallyTable<unknown>[];
  /** The pub/sub topics it publishes; each payload's file adds the topic to `Topics` by declaration merging. */
  readonly topics: readonly (keyof Topics)[];
}

/** A domain's module, its topics kept as literals so that the registry's test can tell every topic is named. */
export const defineModule = <const M extends DomainModule>(module: M): M => module;
