import { billingUnit } from "../directory/service-plans.ts";
import { getRefFromModel } from "@pothos/plugin-prisma";
import type { Context } from "../context.ts";
import { builder } from "../graphql/builder.ts";
import { OFFERING_STATE_LABELS } from "../directory/service-offerings.ts";
import { consentStatus, requiresReconsent } from "../terms-of-service/consent-status.ts";
import { restPresentation } from "../graphql/sub-graphs.ts";

/**
 * Fields of Waldur's Resource serializer that derive from the offering, its provider, the plan, the project and
 * the viewer. Concepts not modelled here read as Waldur reads an offering or project without them: every offering
 * is shared and billable, projects have no grace period, resources have no API keys and no usage restriction.
 */

const dateOnly = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

/** No row has the nil uuid, so a viewer-less request selects nothing of the viewer's. */
const NIL_UUID = "00000000-0000-0000-0000-000000000000";
const viewerId = (ctx: Context) => ctx.viewer?.id ?? NIL_UUID;

/** One selection of the offering's components for every field that reads them, so they load in the list's query. */
const OFFERING_COMPONENTS = { offering: { select: { components: { orderBy: { type: "asc" as const } } } } };

/** The offering's, provider's, plan's and project's fields as Waldur's serializer copies them onto the resource. */
builder.prismaObjectFields("Resource", (t) =>
  restPresentation({
    offeringSlug: t.string({ select: { offering: { select: { slug: true } } }, resolve: (r) => r.offering.slug }),
    offeringDescription: t.string({ select: { offering: { select: { description: true } } }, resolve: (r) => r.offering.description }),
    offeringStateLabel: t.string({
      description: "Waldur's label of the offering's state",
      select: { offering: { select: { state: true } } },
      resolve: (r) => OFFERING_STATE_LABELS[r.offering.state],
    }),
    offeringShared: t.boolean({ description: "Always true: no offering here is private to a project", resolve: () => true }),
    offeringBillable: t.boolean({ description: "Always true, Waldur's default", resolve: () => true }),
    offeringComponents: t.field({
      type: [getRefFromModel("OfferingComponent", builder)],
      select: OFFERING_COMPONENTS,
      resolve: (r) => r.offering.components,
    }),
    providerSlug: t.string({
      select: { offering: { select: { customer: { select: { slug: true } } } } },
      resolve: (r) => r.offering.customer.slug,
    }),
    providerDescription: t.string({
      description: "The service provider's description (empty when the organisation is not registered as one)",
      select: { offering: { select: { customer: { select: { serviceProvider: { select: { description: true } } } } } } },
      resolve: (r) => r.offering.customer.serviceProvider?.description ?? "",
    }),
    planUnit: t.string({
      nullable: true,
      select: { plan: { select: { unit: true } } },
      resolve: (r) => (r.plan ? billingUnit(r.plan) : null),
    }),
    projectEffectiveEndDate: t.string({
      nullable: true,
      description: "YYYY-MM-DD; the project's end date, as projects have no grace period here",
      select: { project: { select: { endDate: true } } },
      resolve: (r) => dateOnly(r.project.endDate),
    }),
    projectIsInGracePeriod: t.boolean({ description: "Always false: projects have no grace period here", resolve: () => false }),
  }),
);

builder.prismaObjectFields("Resource", (t) => ({
  isUsageBased: t.boolean({
    description: "The offering has a usage-based component",
    select: OFFERING_COMPONENTS,
    resolve: (r) => r.offering.components.some((c) => c.billingType === "USAGE"),
  }),
  isLimitBased: t.boolean({
    description: "The offering has a limit-based component",
    select: OFFERING_COMPONENTS,
    resolve: (r) => r.offering.components.some((c) => c.billingType === "LIMIT"),
  }),
  resourceEffectiveEndDate: t.string({
    nullable: true,
    description: "YYYY-MM-DD; the earlier of the resource's and its project's end dates",
    select: { endDate: true, project: { select: { endDate: true } } },
    resolve: (r) => {
      const dates = [r.endDate, r.project.endDate].filter((d): d is Date => d !== null);
      return dates.length ? dateOnly(new Date(Math.min(...dates.map((d) => d.getTime())))) : null;
    },
  }),
  hasApiKeys: t.boolean({ description: "Always false: resources have no API keys here", resolve: () => false }),
  usageLimitRestriction: t.string({ description: "Always empty: no usage restriction is applied here", resolve: () => "" }),
  username: t.string({
    nullable: true,
    description: "The viewer's username on the resource's offering",
    select: (_args, ctx) => ({ offering: { select: { offeringUsers: { where: { userId: viewerId(ctx) }, select: { username: true } } } } }),
    resolve: (r) => r.offering.offeringUsers[0]?.username ?? null,
  }),
  userRequiresReconsent: t.boolean({
    description: "The viewer must consent again to the offering's active terms of service",
    select: (_args, ctx) => ({
      offering: {
        select: {
          termsOfService: {
            where: { isActive: true },
            select: { id: true, offeringId: true, version: true, requiresReconsent: true, gracePeriodDays: true, activatedAt: true, created: true },
          },
          consents: { where: { userId: viewerId(ctx) }, select: { version: true, revocationDate: true } },
        },
      },
    }),
    resolve: (r, _args, ctx) =>
      requiresReconsent(consentStatus(r.offering.termsOfService[0], r.offering.consents[0], ctx.now())),
  }),
}));
