import { fieldError } from "../platform/errors.ts";
import { bodyField, defineBody, json, link, text } from "../../rest-adapter/body-contract.ts";
import { compact, optionalString } from "../../rest-adapter/input.ts";

/** Waldur's choices, which its clients parse the offering with. */
const BILLING_TYPES = ["usage", "fixed", "limit", "one"];
const LIMIT_PERIODS = ["annual", "month", "quarterly", "total"];
const PLAN_UNITS = ["day", "half_month", "hour", "month", "quantity", "quarter"];

const oneOf = (values: readonly string[]) => `must be one of ${values.join(", ")}.`;
const choices = (values: readonly string[]) => ({ type: "string", enum: [...values].sort() });

const COMPONENT = {
  type: "object",
  required: ["type", "billing_type"],
  properties: {
    type: { type: "string" },
    name: { type: "string", description: "The component's type when not given" },
    billing_type: choices(BILLING_TYPES),
    measured_unit: { type: "string" },
    limit_period: choices(LIMIT_PERIODS),
    limit_amount: { type: "integer" },
  },
};

const PLAN = {
  type: "object",
  required: ["name"],
  properties: { name: { type: "string" }, unit_price: { type: "string", description: "A decimal number, such as \"12.50\"" }, unit: choices(PLAN_UNITS) },
};

/** The first component in error is reported as one message on the whole list (not per item); `null` counts as absent. */
function readComponents(value: unknown, name: string) {
  if (value === null) return undefined;
  if (!Array.isArray(value)) throw fieldError(name, "Expected a list of items.");
  return value.map((item: unknown) => readComponent(item, name));
}

function readComponent(item: unknown, name: string) {
  const invalid = (message: string): never => {
    throw fieldError(name, message);
  };
  if (!item || typeof item !== "object") return invalid("Expected a dictionary of items.");
  const c = item as Record<string, unknown>;
  if (typeof c.type !== "string" || typeof (c.name ?? c.type) !== "string") return invalid("type and name are required strings.");
  if (!BILLING_TYPES.includes(String(c.billing_type))) return invalid(`billing_type ${oneOf(BILLING_TYPES)}`);
  const limitAmount = c.limit_amount ?? null;
  if (limitAmount !== null && !Number.isInteger(limitAmount)) return invalid("limit_amount must be an integer.");
  if (c.limit_period != null && !LIMIT_PERIODS.includes(String(c.limit_period))) return invalid(`limit_period ${oneOf(LIMIT_PERIODS)}`);
  return {
    type: c.type,
    name: (c.name ?? c.type) as string,
    billingType: String(c.billing_type).toUpperCase(),
    measuredUnit: typeof c.measured_unit === "string" ? c.measured_unit : undefined,
    limitPeriod: typeof c.limit_period === "string" ? c.limit_period : undefined,
    limitAmount,
  };
}

/** Plans are checked as a whole, with one message for the list; `null` counts as absent. */
function readPlans(value: unknown, name: string) {
  if (value === null) return undefined;
  if (!Array.isArray(value) || value.some((p) => !p || typeof p !== "object" || typeof p.name !== "string")) {
    throw fieldError(name, "Each plan needs a name.");
  }
  if (value.some((p) => p.unit != null && !PLAN_UNITS.includes(String(p.unit)))) throw fieldError(name, `unit ${oneOf(PLAN_UNITS)}`);
  return value.map((p: Record<string, unknown>) =>
    compact({ name: p.name as string, unitPrice: p.unit_price == null ? undefined : String(p.unit_price), unit: optionalString(p, "unit") ?? undefined }),
  );
}

/** `POST /api/marketplace-provider-offerings/`: plugin options and partitions are checked by the domain. */
export const OFFERING_CREATE = defineBody({
  customer: link("customer", { required: true, as: "customerUuid" }),
  name: text({ required: true }),
  type: text({ required: true }),
  description: text(),
  plugin_options: json({ type: "object" }),
  partitions: json({ type: "array", items: { type: "object", required: ["partition_name"], properties: { partition_name: { type: "string" } } } }),
  backend_id: text(),
  components: bodyField({}, { type: "array", items: COMPONENT }, readComponents),
  plans: bodyField({}, { type: "array", items: PLAN }, readPlans),
});
