import { newTokenKey, tokenDigest } from "../../src/auth/secrets.ts";
import type { Db } from "../../src/platform/database/connect.ts";
import type { OfferingUserState } from "../../src/generated/prisma/client.ts";
import { toHex } from "../../src/platform/ids.ts";

/** Every kind of caller the permission tests need, each with a token. */
export const PERSONAS = [
  "staff",
  "support",
  "providerOwner",
  "providerManager",
  "providerSupport",
  "offeringManager",
  "projectAdmin",
  "projectManager",
  "projectMember",
  "unrelated",
] as const;
export type Persona = (typeof PERSONAS)[number];

export interface World {
  tokens: Record<Persona, string>;
  users: Record<Persona, { id: string; uuid: string }>;
  provider: { id: string; uuid: string };
  serviceProvider: { id: string; uuid: string };
  offering: { id: string; uuid: string };
  consumer: { id: string; uuid: string };
  project: { id: string; uuid: string };
  /** Creates a consumer user (a project member) with an offering user in `state`. */
  offeringUser(state?: OfferingUserState, extra?: { username?: string | null; comment?: string }): Promise<{ id: string; uuid: string; userId: string }>;
}

const ref = (id: string) => ({ id, uuid: toHex(id) });

export async function buildWorld(db: Db): Promise<World> {
  // Per world, not per module: test files share loaded modules (vitest `isolate: false`), each has its own world.
  let counter = 0;
  const createUser = async (username: string, extra: { isStaff?: boolean; isSupport?: boolean } = {}) => {
    const user = await db.user.create({ data: { username, firstName: username, lastName: "Test", email: `${username}@example.org`, ...extra } });
    const key = newTokenKey();
    await db.authToken.create({ data: { keyDigest: tokenDigest(key), userId: user.id } });
    return { user, key };
  };
  const provider = await db.customer.create({ data: { name: "Provider Org" } });
  const serviceProvider = await db.serviceProvider.create({ data: { customerId: provider.id } });
  const offering = await db.offering.create({
    data: {
      customerId: provider.id,
      name: "HPC",
      type: "Marketplace.Slurm",
      state: "ACTIVE",
      pluginOptions: { service_provider_can_create_offering_user: true },
      components: { create: [{ type: "cpu", name: "CPU", billingType: "USAGE" }, { type: "ram", name: "RAM", billingType: "USAGE" }] },
    },
  });
  const consumer = await db.customer.create({ data: { name: "Consumer Org" } });
  const project = await db.project.create({ data: { customerId: consumer.id, name: "Project" } });

  const grants: Record<Persona, [string, "CUSTOMER" | "PROJECT" | "OFFERING", string] | null> = {
    staff: null,
    support: null,
    providerOwner: ["CUSTOMER.OWNER", "CUSTOMER", provider.id],
    providerManager: ["CUSTOMER.MANAGER", "CUSTOMER", provider.id],
    providerSupport: ["CUSTOMER.SUPPORT", "CUSTOMER", provider.id],
    offeringManager: ["OFFERING.MANAGER", "OFFERING", offering.id],
    projectAdmin: ["PROJECT.ADMIN", "PROJECT", project.id],
    projectManager: ["PROJECT.MANAGER", "PROJECT", project.id],
    projectMember: ["PROJECT.MEMBER", "PROJECT", project.id],
    unrelated: null,
  };
  const tokens = {} as Record<Persona, string>;
  const users = {} as Record<Persona, { id: string; uuid: string }>;
  for (const persona of PERSONAS) {
    const { user, key } = await createUser(persona, { isStaff: persona === "staff", isSupport: persona === "support" });
    tokens[persona] = key;
    users[persona] = ref(user.id);
    const grant = grants[persona];
    if (grant) await db.roleGrant.create({ data: { userId: user.id, role: grant[0], scopeType: grant[1], scopeId: grant[2] } });
  }

  return {
    tokens,
    users,
    provider: ref(provider.id),
    serviceProvider: ref(serviceProvider.id),
    offering: ref(offering.id),
    consumer: ref(consumer.id),
    project: ref(project.id),
    async offeringUser(state = "CREATION_REQUESTED", extra = {}) {
      counter += 1;
      const member = await db.user.create({ data: { username: `member${counter}`, firstName: "Member", lastName: String(counter) } });
      await db.roleGrant.create({ data: { userId: member.id, role: "PROJECT.MEMBER", scopeType: "PROJECT", scopeId: project.id } });
      const ou = await db.offeringUser.create({
        data: { offeringId: offering.id, userId: member.id, state, username: extra.username ?? null, serviceProviderComment: extra.comment ?? "" },
      });
      return { ...ref(ou.id), userId: member.id };
    },
  };
}
