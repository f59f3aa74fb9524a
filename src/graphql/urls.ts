import type { Context } from "../context.ts";
import { COLLECTIONS, type Collection } from "../collections/rest-paths.ts";
import { toHex } from "../platform/ids.ts";

/** The absolute REST url of an object (`url` fields). */
export const apiUrl = (ctx: Pick<Context, "baseUrl">, kind: Collection, id: string | number) =>
  `${ctx.baseUrl}/api/${COLLECTIONS[kind]}/${typeof id === "number" ? id : toHex(id)}/`;
