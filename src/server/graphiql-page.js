// GraphiQL's page script (served by src/server/graphiql.ts; runs in the browser, not type-checked).
// Loaded after graphql-ws's browser build (global `graphqlWs`) and before yoga's GraphiQL (global `YogaGraphiQL`).
//
// Yoga's own fetcher sends the Headers tab with queries over HTTP, but over graphql-ws it sends an empty
// connection_init and puts the headers in each subscribe message's `extensions`, while the gateway authenticates a
// connection in connection_init. This fetcher sends the Headers tab as the connectionParams instead.
"use strict";

/**
 * The type of the operation to run: the one named `operationName`, else the first. Read from the query text at hand
 * (GraphiQL's parsed document can lag behind the editor) by a scan of the top level that skips strings, comments and
 * everything nested: `query`/`mutation`/`subscription`/`fragment` and a name open a definition, `{` alone opens the
 * shorthand query, and the `}` that returns to the top level closes it. src/server/graphiql.test.ts runs it in node:vm.
 */
function graphqlOperationType(query, operationName) {
  const NAME = /[_A-Za-z][_0-9A-Za-z]*/y;
  const lineEnd = (at) => {
    const end = query.indexOf("\n", at);
    return end === -1 ? query.length : end;
  };
  const stringEnd = (at) => {
    const quote = query.startsWith('"""', at) ? '"""' : '"';
    for (let end = at + quote.length; end < query.length; end++) {
      if (query[end] === "\\") end++;
      else if (query.startsWith(quote, end)) return end + quote.length - 1;
    }
    return query.length;
  };
  const definitions = [];
  let open = null;
  let depth = 0;
  for (let at = 0; at < query.length; at++) {
    const char = query[at];
    if (char === "#") at = lineEnd(at);
    else if (char === '"') at = stringEnd(at);
    else if ("{([".includes(char)) {
      if (depth === 0 && !open) definitions.push((open = { type: "query", name: null }));
      depth++;
    } else if ("})]".includes(char)) {
      depth--;
      if (depth === 0 && char === "}") open = null;
    } else if (depth === 0) {
      NAME.lastIndex = at;
      const word = NAME.exec(query)?.[0];
      if (!word) continue;
      if (!open) definitions.push((open = { type: word, name: null }));
      else if (open.name === null) open.name = word;
      at += word.length - 1;
    }
  }
  const operations = definitions.filter((definition) => definition.type !== "fragment");
  return (operationName ? operations.find((operation) => operation.name === operationName) : operations[0])?.type;
}

function startGraphiQL() {
  const config = JSON.parse(document.getElementById("graphiql-config").textContent);

  // Monaco's workers, loaded from the gateway (yoga's page makes blob: URLs of inlined copies).
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: (_moduleId, label) => config.workers[label] ?? config.workers.editorWorkerService,
  };

  // GraphiQL warns when given both a fetcher and an endpoint: the endpoint is this fetcher's.
  const { endpoint: endpointOption, ...options } = config.options;
  const endpoint = new URL(endpointOption ?? location.pathname, location.href);
  const socketUrl = new URL(endpoint);
  socketUrl.protocol = endpoint.protocol === "https:" ? "wss:" : "ws:";

  async function overHttp(params, headers) {
    const response = await fetch(endpoint, {
      method: "POST",
      credentials: "same-origin",
      headers: { accept: "application/graphql-response+json, application/json", "content-type": "application/json", ...headers },
      body: JSON.stringify(params),
    });
    return response.json();
  }

  /** One lazy client per set of headers: it connects for its first subscription and closes after its last. */
  const socketClients = new Map();
  function socketClient(headers) {
    const key = JSON.stringify(headers);
    if (!socketClients.has(key)) {
      // No retries: a refused token (4403) is shown at once with the server's reason instead of retried.
      socketClients.set(key, graphqlWs.createClient({ url: socketUrl.href, connectionParams: headers, lazy: true, retryAttempts: 0 }));
    }
    return socketClients.get(key);
  }

  /** What GraphiQL shows for a failed subscription: GraphQL errors as they are, a closed socket with its reason. */
  function asError(error) {
    if (Array.isArray(error) || error instanceof Error) return error;
    if (typeof error?.code === "number") return new Error(`${error.reason || "The connection closed."} (WebSocket close code ${error.code})`);
    return new Error("The WebSocket connection failed.");
  }

  function overWebSocket(params, headers) {
    return {
      subscribe(observer) {
        const unsubscribe = socketClient(headers).subscribe(params, {
          next: (result) => observer.next(result),
          error: (error) => observer.error(asError(error)),
          complete: () => observer.complete(),
        });
        return { unsubscribe };
      },
    };
  }

  function fetcher(params, fetcherOptions) {
    const headers = fetcherOptions?.headers ?? {};
    const subscription = graphqlOperationType(params.query, params.operationName) === "subscription";
    return subscription ? overWebSocket(params, headers) : overHttp(params, headers);
  }

  document.addEventListener("DOMContentLoaded", () => {
    YogaGraphiQL.renderYogaGraphiQL(document.getElementById("root"), { ...options, fetcher });
  });
}

if (typeof document === "object") startGraphiQL();
