/** What a REST route reads of a request: path parameters, the query string and the JSON body (an object). */
export interface RestRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
}
