import type { Prisma } from "../generated/prisma/client.ts";
import { type FieldErrors, invalid, MISSING_OBJECT } from "../platform/errors.ts";
import { parseUuid } from "../platform/ids.ts";
import { validUrl } from "../platform/text.ts";
import { type MaintenanceType, maintenanceTypes } from "./enums.ts";

/** The writable fields of an announcement, named as the GraphQL input names them. Absent fields are left as they are. */
export interface MaintenanceInput {
  name?: string | null;
  message?: string | null;
  internalNotes?: string | null;
  maintenanceType?: MaintenanceType | null;
  externalReferenceUrl?: string | null;
  scheduledStart?: Date | null;
  scheduledEnd?: Date | null;
  serviceProviderUuid?: string | null;
}

const REQUIRED_ON_CREATE = ["name", "scheduledStart", "scheduledEnd", "serviceProviderUuid"] as const;

const TEXT_LIMITS = { name: 150, message: 2000, internalNotes: 2000 } as const;

export interface ValidMaintenanceInput {
  data: Omit<Prisma.MaintenanceAnnouncementUncheckedUpdateInput, "serviceProviderId">;
  serviceProviderId?: string;
}

/** Checks every field as a DRF serializer does and reports all field errors together (400), keyed by the input's names. */
export function validMaintenanceInput(input: MaintenanceInput, creating: boolean): ValidMaintenanceInput {
  const errors: FieldErrors = {};
  const fail = (key: keyof MaintenanceInput, message: string) => (errors[key] = [message]);
  if (creating) for (const key of REQUIRED_ON_CREATE) if (input[key] === undefined) fail(key, "This field is required.");
  for (const [key, value] of Object.entries(input) as Array<[keyof MaintenanceInput, unknown]>) {
    if (value === null) fail(key, "This field may not be null.");
  }
  const data: ValidMaintenanceInput["data"] = {};
  for (const key of Object.keys(TEXT_LIMITS) as Array<keyof typeof TEXT_LIMITS>) {
    const value = input[key];
    if (typeof value !== "string") continue;
    if (key === "name" && value.trim() === "") fail(key, "This field may not be blank.");
    else if (value.length > TEXT_LIMITS[key]) fail(key, `Ensure this field has no more than ${TEXT_LIMITS[key]} characters.`);
    else data[key] = key === "name" ? value.trim() : value;
  }
  if (input.maintenanceType) data.maintenanceType = maintenanceTypes.codeOf(input.maintenanceType);
  if (typeof input.externalReferenceUrl === "string") {
    try {
      data.externalReferenceUrl = validUrl("externalReferenceUrl", input.externalReferenceUrl);
    } catch (error) {
      Object.assign(errors, (error as { extensions: { fields: FieldErrors } }).extensions.fields);
    }
  }
  if (input.scheduledStart) data.scheduledStart = input.scheduledStart;
  if (input.scheduledEnd) data.scheduledEnd = input.scheduledEnd;
  let serviceProviderId: string | undefined;
  if (typeof input.serviceProviderUuid === "string") {
    serviceProviderId = parseUuid(input.serviceProviderUuid) ?? undefined;
    if (!serviceProviderId) fail("serviceProviderUuid", MISSING_OBJECT);
  }
  if (Object.keys(errors).length) throw invalid(errors);
  return { data, serviceProviderId };
}

export const scheduleError = () => invalid({ scheduledEnd: ["Scheduled end must be after scheduled start."] });
