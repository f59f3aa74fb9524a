import type { FilterReading, UuidSpelling } from "../src/collections/contract.ts";
import { COLLECTIONS } from "../src/collections/rest-paths.ts";
import { restParameters } from "./collection-query.ts";
import type { RouteSpec } from "./route.ts";

/** docs/rest-filters.md: every list's filters and orderings, printed from the collections' contracts. */

function formOf(filter: FilterReading, spelling: UuidSpelling | undefined): string {
  if (spelling === "uuid") return "uuid";
  if (spelling === "uuids") return "uuids (repeated or comma-separated; any of them)";
  if (spelling) return `URL of ${[spelling.url].flat().map((kind) => `/api/${COLLECTIONS[kind]}/…`).join(" or ")} (or its uuid)`;
  const forms: Record<FilterReading["kind"], string> = {
    uuids: "uuid",
    choice: "label (repeatable; any of them)",
    after: "date-time (at or after)",
    before: "date-time (before)",
    date: "date",
    boolean: "boolean",
    text: "text",
    texts: "text (repeatable; any of them)",
    int: "integer",
    number: "number",
  };
  const form = forms[filter.kind];
  return filter.kind === "choice" ? `${form}: ${Object.keys(filter.labels).map((label) => `\`${label}\``).join(", ")}` : form;
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

export function filterReference(routes: RouteSpec[]): string {
  const sections = routes.flatMap((route) => {
    const contract = route.contract;
    if (!contract || route.method !== "GET") return [];
    const argumentOf = new Map<FilterReading, string>(Object.entries(contract.filters).map(([arg, filter]) => [filter, arg]));
    const rows = restParameters(contract).map(
      ({ name, filter, spelling }) =>
        `| \`${name}\` | ${cell(formOf(filter, spelling))} | \`${argumentOf.get(filter)}\` | ${cell(filter.description ?? "")} |`,
    );
    const orderings = Object.keys(contract.orderings).map((key) => `\`${key}\``).join(", ");
    return [
      `## \`${route.path}\``,
      "",
      "| REST parameter | Form | GraphQL `filter` field | Meaning |",
      "|---|---|---|---|",
      ...rows,
      "",
      `Ordering \`o\` (\`-\` for descending, comma-separated): ${orderings || "none"}; default \`${contract.defaultOrder.join(",")}\`.`,
      "",
    ];
  });
  return [
    "# REST list filters",
    "",
    "Generated from the collections' contracts (`src/<domain>/contract.ts`) by `npm run docs:filters`; a test fails when it",
    "drifts. Several parameters of one filter narrow together; an unknown label or a malformed value is a 400 naming the",
    "parameter. Parameters Waldur does not know are ignored, as DRF ignores them.",
    "",
    ...sections,
  ].join("\n");
}
