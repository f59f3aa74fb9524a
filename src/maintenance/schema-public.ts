import { builder } from "../graphql/builder.ts";
import { collectionFields } from "../graphql/collection-fields.ts";
import { toHex } from "../platform/ids.ts";
import type { MaintenanceChangedPayload } from "./maintenance-changed.ts";
import { PUBLIC_STATES } from "./enums.ts";
import * as publicView from "./service-public.ts";
import { maintenanceAnnouncementCollection } from "./schema.ts";
import { MaintenanceStateEnum, PublicMaintenanceAnnouncementRef } from "./schema-types.ts";
import { rejectBadToken } from "./visibility.ts";
import { afterArgument, resumable } from "../events/resume.ts";
import { findFirst } from "../platform/reads/sql/find.ts";

export const publicMaintenanceAnnouncementCollection = collectionFields({
  node: PublicMaintenanceAnnouncementRef, sameInputsAs: maintenanceAnnouncementCollection,
  list: { description: "Scheduled, in-progress and completed announcements of every provider; no token needed", load: publicView.listPublicMaintenance },
  record: publicView.getPublicMaintenance,
});

type PublicChange = MaintenanceChangedPayload & { kind: publicView.PublicChangeKind };

const PublicChangeKindEnum = builder.enumType("PublicMaintenanceChangeKind", {
  values: {
    ENTERED: { description: "Became public (scheduled)" },
    UPDATED: { description: "Changed while public" },
    LEFT: { description: "No longer public (unscheduled, cancelled or deleted)" },
  },
});

const PublicChangeRef = builder.objectRef<PublicChange>("PublicMaintenanceChange").implement({
  fields: (t) => ({
    maintenanceAnnouncementUuid: t.string({ resolve: (p) => toHex(p.maintenanceId) }),
    kind: t.field({ type: PublicChangeKindEnum, resolve: (p) => p.kind }),
    state: t.field({
      type: MaintenanceStateEnum,
      nullable: true,
      description: "The public state; null once the announcement left the public view",
      resolve: (p) => (p.kind === "LEFT" ? null : p.state),
    }),
    announcement: t.prismaField({
      type: PublicMaintenanceAnnouncementRef,
      nullable: true,
      description: "The announcement as the public view shows it now; null once it left",
      resolve: (query, p, _args, ctx) =>
        p.kind === "LEFT"
          ? null
          : findFirst(ctx.db, "maintenanceAnnouncement", { ...query, where: { id: p.maintenanceId, state: { in: [...PUBLIC_STATES] } } }),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  publicMaintenanceChanged: t.field({
    type: PublicChangeRef,
    description: "Announcements entering, changing within or leaving the public view; anonymous callers allowed (SSE)",
    args: { serviceProviderUuid: t.arg.id(), after: t.arg.int(afterArgument) },
    subscribe: (_root, args, ctx) => {
      rejectBadToken(ctx);
      const provider = args.serviceProviderUuid ? toHex(String(args.serviceProviderUuid)) : null;
      return resumable(
        ctx,
        "maintenanceChanged",
        args.after,
        (p) => (!provider || toHex(p.serviceProviderId) === provider) && publicView.publicChangeKind(p) !== null,
      );
    },
    resolve: (payload: MaintenanceChangedPayload): PublicChange => ({ ...payload, kind: publicView.publicChangeKind(payload)! }),
  }),
}));
