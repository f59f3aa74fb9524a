import { lexicographicSortSchema } from "graphql";
import { builder } from "./builder.ts";
import "./scalars.ts";
import "../directory/schema/types.ts";
import "../directory/schema/operations.ts";
import "../events/schema.ts";
import "../offering-users/schema.ts";
import "../maintenance/schema.ts";
import "../maintenance/schema-offerings.ts";
import "../maintenance/schema-public.ts";
import "../maintenance/schema-admin-announcements.ts";
import "../terms-of-service/schema.ts";
import "../terms-of-service/consents-schema.ts";
import "../resources/schema.ts";
import "../orders/schema.ts";
import "../usage/schema.ts";

export const schema = lexicographicSortSchema(builder.toSchema());
