import { randomBytes } from "node:crypto";
import type { Context } from "../context.ts";
import { findManagedAgentIdentity } from "../site-agents/service.ts";
import { conflict, invalid } from "../platform/errors.ts";
import { configuredBroker, presentedToken, provisioned } from "./broker-access.ts";
import { consumerQueueName, vhostOf } from "./naming.ts";
import { isObservableObjectType, OBSERVABLE_OBJECT_TYPES } from "./object-types.ts";
import { findUnique } from "../platform/reads/sql/find.ts";

export interface ConsumerQueueRegistration {
  created: boolean;
  rmqUsername: string;
  queueName: string;
  vhost: string;
  /** The types the queue receives; every type when it asked for none. */
  observableObjectTypes: string[];
}

function readObjectTypes(objectTypes: readonly string[] | null | undefined): string[] | undefined {
  if (objectTypes == null) return undefined;
  const unknown = objectTypes.filter((type) => !isObservableObjectType(type));
  if (unknown.length) throw invalid({ objectTypes: unknown.map((type) => `"${type}" is not a valid choice.`) });
  return [...new Set(objectTypes)];
}

/**
 * The newer agents' `register_queue`: one queue per agent identity (`consumer_<uuid>`) that receives every type it
 * asked for (none: all of them), each body naming its `object_type`. The caller's token becomes the password of the
 * queue's broker login; an identity whose queue another user registered is refused (409).
 */
export async function registerConsumerQueue(ctx: Context, identityUuid: string, input: { objectTypes?: readonly string[] | null }): Promise<ConsumerQueueRegistration> {
  const viewer = ctx.requireViewer();
  const identity = await findManagedAgentIdentity(ctx, identityUuid);
  const broker = configuredBroker(ctx);
  const objectTypes = readObjectTypes(input.objectTypes);
  const token = presentedToken(ctx);
  const existing = await findUnique(ctx.db, "agentConsumerQueue", { where: { identityId: identity.id } });
  if (existing && existing.userId !== viewer.id) throw conflict("The queue of this agent identity was registered by another user.");
  const row = await ctx.db.agentConsumerQueue.upsert({
    where: { identityId: identity.id },
    create: {
      identityId: identity.id,
      userId: viewer.id,
      tokenDigest: token.digest,
      rmqUsername: randomBytes(16).toString("hex"),
      objectTypes: objectTypes ?? [],
      created: ctx.now(),
      modified: ctx.now(),
    },
    update: { tokenDigest: token.digest, modified: ctx.now(), ...(objectTypes ? { objectTypes } : {}) },
  });
  const vhost = vhostOf(viewer.id);
  const queueName = consumerQueueName(row.id);
  await provisioned("queue", async () => {
    await broker.ensureVhost(vhost);
    await broker.ensureUser(vhost, row.rmqUsername, token.key);
    await broker.ensureQueue(vhost, queueName);
  });
  const types = row.objectTypes.length ? row.objectTypes : [...OBSERVABLE_OBJECT_TYPES];
  return { created: !existing, rmqUsername: row.rmqUsername, queueName, vhost, observableObjectTypes: types };
}
