import { defineModule } from "../domain-module.ts";
import "./schema.ts";
import "./schema-actions.ts";
import "./schema-offerings.ts";
import "./schema-public.ts";
import "./schema-admin-announcements.ts";
import { maintenanceRest } from "./rest.ts";
import { adminAnnouncementRest } from "./rest-admin-announcements.ts";

export const maintenanceModule = defineModule({
  name: "maintenance",
  rest: [maintenanceRest, adminAnnouncementRest],
  tallies: [],
  topics: ["maintenanceChanged"],
});
