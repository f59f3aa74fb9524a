/** Waldur's ObservableObjectTypeEnum: every type an agent may subscribe to and get a queue for. */
export const OBSERVABLE_OBJECT_TYPES = [
  "order",
  "user_role",
  "resource",
  "offering_user",
  "offering_resources_sync",
  "importable_resources",
  "service_account",
  "course_account",
  "resource_periodic_limits",
  "resource_api_key_rotation",
  "resource_end_date_change_request",
  "user_profile",
  "user_ssh_key",
  "user_lifecycle",
] as const;

export type ObservableObjectType = (typeof OBSERVABLE_OBJECT_TYPES)[number];

/** The types we publish; the others accept their queues and stay quiet (we keep none of their objects). */
export type PublishedObjectType = Extract<ObservableObjectType, "order" | "user_role" | "resource" | "offering_user" | "offering_resources_sync">;

export const isObservableObjectType = (value: unknown): value is ObservableObjectType =>
  typeof value === "string" && (OBSERVABLE_OBJECT_TYPES as readonly string[]).includes(value);
