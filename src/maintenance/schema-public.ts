import { builder, nullIfMissing } from "../graphql/builder.ts";
import { connectionType, nodesQuery, pageArgs, toPage, relayConnection } from "../graphql/pagination.ts";
import { toHex } from "../platform/ids.ts";
import type { MaintenanceChangedPayload } from "./maintenance-changed.ts";
import { PUBLIC_STATES } from "./enums.ts";
import * as publicView from "./public.ts";
import { MaintenanceFilterInput, MaintenanceOrderEnum } from "./schema.ts";
import { MaintenanceStateEnum, PublicMaintenanceAnnouncementRef } from "./schema-types.ts";
import { rejectBadToken } from "./visibility.ts";
import { afterArgument, resumable } from "../events/resume.ts";

const PublicConnection = connectionType("PublicMaintenanceAnnouncement", PublicMaintenanceAnnouncementRef);

builder.queryFields((t) => ({
  publicMaintenanceAnnouncements: t.field({
    type: PublicConnection,
    description: "Scheduled, in-progress and completed announcements of every provider; no token needed",
    args: { filter: t.arg({ type: MaintenanceFilterInput }), orderBy: t.arg({ type: [MaintenanceOrderEnum] }), ...pageArgs },
    resolve: (_root, args, ctx, info) =>
      relayConnection(publicView.listPublicMaintenance(
        ctx,
        { filter: args.filter, orderBy: args.orderBy, page: toPage(args) },
        nodesQuery(ctx, info, "PublicMaintenanceAnnouncement"),
      )),
  }),
  publicMaintenanceAnnouncement: t.prismaField({
    nullable: true,
    type: PublicMaintenanceAnnouncementRef,
    args: { uuid: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => nullIfMissing(publicView.getPublicMaintenance(ctx, String(args.uuid), query)),
  }),
}));

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
          : ctx.db.maintenanceAnnouncement.findFirst({ ...query, where: { id: p.maintenanceId, state: { in: [...PUBLIC_STATES] } } }),
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
