/**
 * A GraphQL enum's values from a table of Waldur's label of each (`{ CREATING: "Creating" }` or `{ CREATING: { label } }`),
 * each value described by the label REST shows for it.
 */
export const labelledValues = <K extends string>(labels: Readonly<Record<K, string | { label: string }>>) =>
  // Object.entries widens the keys to string; they are K's by construction.
  Object.fromEntries(
    Object.entries<string | { label: string }>(labels).map(([value, label]) => [value, { description: `REST label "${typeof label === "string" ? label : label.label}"` }]),
  ) as Record<K, { description: string }>;
