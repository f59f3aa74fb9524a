import { encodeGlobalID } from "@pothos/plugin-relay";
import { toHex } from "../../src/platform/ids.ts";

/** The global id of the `typename` object whose uuid (either spelling) is `uuid`, as mutations take it. */
export const globalId = (typename: string, uuid: string) => encodeGlobalID(typename, toHex(uuid));
