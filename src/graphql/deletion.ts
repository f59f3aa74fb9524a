import { encodeGlobalID } from "@pothos/plugin-relay";
import { toHex } from "../platform/ids.ts";
import type { NodeTypeName } from "../collections/type-names.ts";
import { builder } from "./builder.ts";

interface Deleted {
  typename: NodeTypeName;
  uuid: string;
}

/** What every delete mutation returns. */
export const DeletionRef = builder.objectRef<Deleted>("Deletion").implement({
  description: "What a delete removed: its global id (to evict it from a normalised cache) and its uuid",
  fields: (t) => ({
    deletedId: t.id({ resolve: (d) => encodeGlobalID(d.typename, toHex(d.uuid)) }),
    uuid: t.string({ resolve: (d) => toHex(d.uuid) }),
  }),
});

/** The deletion of the `typename` object whose uuid is `uuid` (either form). */
export const deleted = (typename: NodeTypeName, uuid: string): Deleted => ({ typename, uuid });
