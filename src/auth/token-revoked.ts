/** The `tokenRevoked` topic: tokens revoked or expired; every instance closes the WebSockets and SSE streams they authenticated (./tokens-sessions.ts). */
export interface TokenRevokedPayload {
  tokenDigests: string[];
  reason: "revoked" | "expired";
}

declare module "../platform/messaging/topics.ts" {
  interface Topics {
    tokenRevoked: TokenRevokedPayload;
  }
}
