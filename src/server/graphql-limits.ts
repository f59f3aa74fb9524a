import { EnvelopArmor } from "@escape.tech/graphql-armor";
import { GraphQLError, NoSchemaIntrospectionCustomRule, type ValidationContext } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { GraphqlSettings } from "../platform/settings/graphql-settings.ts";
import { errorForClient } from "../platform/error-messages.ts";

type GraphQLArmorConfig = NonNullable<ConstructorParameters<typeof EnvelopArmor>[0]>;
type Protection = "maxTokens" | "maxDepth" | "maxAliases" | "maxDirectives" | "costLimit";

const IN_PLACE_FRAGMENTS = { flattenFragments: true };

/** Each armor protection: the setting that bounds it, the armor option holding the bound, the code clients see, other options. */
const LIMITS: Array<{ protection: Protection; setting: keyof GraphqlSettings; option: "n" | "maxCost"; code: string; options?: object }> = [
  { protection: "maxTokens", setting: "graphqlMaxTokens", option: "n", code: "QUERY_TOO_LARGE" },
  { protection: "maxDepth", setting: "graphqlMaxDepth", option: "n", code: "QUERY_TOO_DEEP", options: IN_PLACE_FRAGMENTS },
  { protection: "maxAliases", setting: "graphqlMaxAliases", option: "n", code: "TOO_MANY_ALIASES" },
  { protection: "maxDirectives", setting: "graphqlMaxDirectives", option: "n", code: "TOO_MANY_DIRECTIVES" },
  { protection: "costLimit", setting: "graphqlMaxCost", option: "maxCost", code: "QUERY_TOO_COMPLEX", options: IN_PLACE_FRAGMENTS },
];

/**
 * Armor reports "Syntax Error: Query depth limit of 10 exceeded, found 12."; clients get the message without the
 * misleading prefix and a code. Validation limits become validation errors; the token limit fails the parse.
 */
function rejectWith(code: string) {
  return (context: ValidationContext | null, error: GraphQLError) => {
    const rejection = new GraphQLError(error.message.replace(/^Syntax Error: /, ""), { extensions: { code } });
    if (!context) throw rejection;
    context.reportError(rejection);
  };
}

function armorConfig(settings: GraphqlSettings): GraphQLArmorConfig {
  const config: GraphQLArmorConfig = { blockFieldSuggestion: { enabled: false } };
  for (const { protection, setting, option, code, options } of LIMITS) {
    config[protection] = { ...options, enabled: true, [option]: settings[setting], propagateOnRejection: false, onReject: [rejectWith(code)] };
  }
  return config;
}

/**
 * Parse and validation errors as clients may see them (see src/platform/error-messages.ts): echoed input bounded, and "Did you
 * mean …?" hints (which would let a caller map the schema without introspection) removed unless `suggestions`.
 * yoga's maskError does the same for every other error; graphql-ws sends parse and validation errors unmasked.
 */
const clientErrorMessages = (suggestions: boolean): Plugin => ({
  onParse: () => ({ result, replaceParseResult }) => {
    if (result instanceof Error) replaceParseResult(errorForClient(result, suggestions));
  },
  onValidate: () => ({ valid, result, setResult }) => {
    if (!valid) setResult(result.map((error) => errorForClient(error, suggestions)));
  },
});

const disableIntrospection: Plugin = {
  onValidate: ({ addValidationRule }) => addValidationRule(NoSchemaIntrospectionCustomRule),
};

/** Envelop plugins for /graphql and graphql-ws alike (the REST adapter's documents are prepared at start-up). */
export function graphqlLimitPlugins(settings: GraphqlSettings): Plugin[] {
  return [
    ...(new EnvelopArmor(armorConfig(settings)).protect().plugins as Plugin[]),
    ...(settings.graphqlIntrospection ? [] : [disableIntrospection]),
    clientErrorMessages(settings.graphqlFieldSuggestions),
  ];
}
