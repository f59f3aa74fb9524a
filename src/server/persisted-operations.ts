import {
  type CustomErrorFactory,
  defaultExtractPersistedOperationId,
  type ExtractPersistedOperationId,
  usePersistedOperations,
} from "@graphql-yoga/plugin-persisted-operations";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import type { SecuritySettings } from "../platform/settings/security-settings.ts";

/** The request field graphql-codegen's client preset (`persistedDocuments`) names its document by. */
export const DOCUMENT_ID_PARAM = "documentId";

const refusal = (message: string, code: string): CustomErrorFactory => ({ message, extensions: { code, http: { status: 400 } } });

/** Apollo's `extensions.persistedQuery.sha256Hash`, else `documentId` (a JSON body's field, or `?documentId=` on GET). */
const operationId: ExtractPersistedOperationId = (params, request, context) => {
  const hash = defaultExtractPersistedOperationId(params, request, context);
  if (hash) return hash;
  const documentId = DOCUMENT_ID_PARAM in params ? params[DOCUMENT_ID_PARAM] : new URL(request.url).searchParams.get(DOCUMENT_ID_PARAM);
  return typeof documentId === "string" && documentId ? documentId : null;
};

const ONLY_PERSISTED = "Only persisted operations run here: send a listed document's id (extensions.persistedQuery.sha256Hash or documentId), not its text.";

/**
 * graphql-ws parses the text it is sent directly, never asking for an id: with allow-list-only, a text parses only
 * when it is a listed document, byte for byte. Over HTTP the id lookup has already put the listed text in its place.
 * The REST adapter's prepared documents are never parsed per request, so this never sees them.
 */
function onlyListedDocumentsParse(documents: ReadonlySet<string>): Plugin {
  return {
    onParse({ params: { source } }) {
      if (!documents.has(typeof source === "string" ? source : source.body)) {
        throw createGraphQLError(ONLY_PERSISTED, { extensions: { code: "PERSISTED_QUERY_ONLY" } });
      }
    },
  };
}

/**
 * PERSISTED_OPERATIONS: clients may send a listed document's id instead of its text; PERSISTED_OPERATIONS_ONLY: they
 * must. Both act on /graphql's request parameters and graphql-ws documents; the REST adapter runs its own
 * prepared documents past them (rest-adapter/execute.ts executes without parsing or request parameters).
 */
export function persistedOperationPlugins(settings: SecuritySettings): Plugin[] {
  const documents = settings.persistedOperations;
  if (!documents) return [];
  const lookup = usePersistedOperations({
    getPersistedOperation: (id) => documents.get(id) ?? null,
    allowArbitraryOperations: !settings.persistedOperationsOnly,
    extractPersistedOperationId: operationId,
    customErrors: {
      notFound: refusal("No persisted operation has this id.", "PERSISTED_QUERY_NOT_FOUND"),
      persistedQueryOnly: refusal(ONLY_PERSISTED, "PERSISTED_QUERY_ONLY"),
      keyNotFound: refusal("Neither a document (query) nor a persisted operation's id (extensions.persistedQuery.sha256Hash or documentId) was sent.", "PERSISTED_QUERY_ID_REQUIRED"),
    },
  });
  return settings.persistedOperationsOnly ? [lookup, onlyListedDocumentsParse(new Set(documents.values()))] : [lookup];
}
