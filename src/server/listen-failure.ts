/** Why the server could not bind its address, in one line that says what to change. */
const BY_CODE: Record<string, (at: { host: string; port: number }) => string> = {
  EADDRINUSE: ({ port }) => `port ${port} is in use (set PORT=…)`,
  EACCES: ({ port }) => `port ${port} needs privileges this process does not have (set PORT=… above 1023)`,
  EADDRNOTAVAIL: ({ host }) => `address ${host} is not one of this machine's (set HOST=…)`,
  ENOTFOUND: ({ host }) => `host ${host} does not resolve (set HOST=…)`,
};

const codeOf = (error: unknown) => (error && typeof error === "object" && "code" in error ? String(error.code) : "");

export function listenFailure(error: unknown, at: { host: string; port: number }): string {
  const explain = BY_CODE[codeOf(error)];
  if (explain) return explain(at);
  return `cannot listen on ${at.host}:${at.port}: ${error instanceof Error ? error.message : String(error)}`;
}
