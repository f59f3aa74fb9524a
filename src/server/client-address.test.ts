import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { loadProxySettings } from "../platform/settings/proxy-settings.ts";
import { resolveClientAddress } from "./client-address.ts";

describe("resolveClientAddress", () => {
  const PROXIES = ["10.0.0.0/8", "192.0.2.7", "2001:db8::/32"];
  const CASES: Array<[string, string[], string | undefined, string | undefined, string | null]> = [
    ["no trusted proxies: the header is ignored", [], "203.0.113.9", "198.51.100.1", "203.0.113.9"],
    ["an untrusted peer's header is ignored", PROXIES, "203.0.113.9", "198.51.100.1", "203.0.113.9"],
    ["a trusted peer: the hop it was connected from", PROXIES, "10.1.2.3", "198.51.100.1", "198.51.100.1"],
    ["forged entries left of the first untrusted hop are skipped", PROXIES, "10.1.2.3", "1.1.1.1, 6.6.6.6, 198.51.100.1", "198.51.100.1"],
    ["trusted hops are walked through from the right", PROXIES, "10.1.2.3", "1.1.1.1, 198.51.100.1, 192.0.2.7, 10.9.9.9", "198.51.100.1"],
    ["every hop trusted: the left-most", PROXIES, "10.1.2.3", "10.0.0.1, 192.0.2.7", "10.0.0.1"],
    ["a trusted peer without the header: the peer", PROXIES, "10.1.2.3", undefined, "10.1.2.3"],
    ["a hop that is not an address ends the walk", PROXIES, "10.1.2.3", "1.1.1.1, not-an-ip", "10.1.2.3"],
    ["IPv4-mapped peers match IPv4 ranges", PROXIES, "::ffff:10.1.2.3", "198.51.100.1", "198.51.100.1"],
    ["IPv6 ranges", PROXIES, "2001:db8::5", "2001:db8::9, 2001:470::1", "2001:470::1"],
    ["no peer (an in-process request): unknown", PROXIES, undefined, "198.51.100.1", null],
  ];
  for (const [name, proxies, peer, header, expected] of CASES) {
    it(name, () => expect(resolveClientAddress(proxies, peer, header)).toBe(expected));
  }

  it("repeated headers read as one list", () => {
    expect(resolveClientAddress(PROXIES, "10.1.2.3", ["1.1.1.1", "198.51.100.1"])).toBe("198.51.100.1");
  });
});

describe("TRUSTED_PROXIES", () => {
  it("is empty by default and takes addresses and CIDR ranges", () => {
    expect(loadProxySettings({})).toEqual({ trustedProxies: [] });
    expect(loadProxySettings({ TRUSTED_PROXIES: " 10.0.0.0/8, 127.0.0.1 ,::1,fd00::/8" })).toEqual({
      trustedProxies: ["10.0.0.0/8", "127.0.0.1", "::1", "fd00::/8"],
    });
  });

  for (const bad of ["10.0.0.0/33", "proxy.example.org", "10.0.0.1/8/1", "::1/129", "10.0.0.0/x"]) {
    it(`refuses ${bad}`, () => expect(() => loadProxySettings({ TRUSTED_PROXIES: `127.0.0.1,${bad}` })).toThrow(/TRUSTED_PROXIES/));
  }
});

/** Creates a user (an audit event with the caller's address) and answers the address recorded. */
async function recordedAddress(t: TestApp, create: (username: string) => Promise<void>): Promise<unknown> {
  const username = `u${Math.random().toString(36).slice(2, 10)}`;
  await create(username);
  const event = await t.app.deps.db.event.findFirstOrThrow({ where: { eventType: "user_creation_succeeded", message: { contains: username } } });
  return (event.context as Record<string, unknown>).ip_address;
}

const CREATE_USER = `mutation($username: String!) { createUser(input: { username: $username }) { ... on User { uuid } } }`;

function overHttp(t: TestApp, forwardedFor: string) {
  return async (username: string) => {
    const res = await t.socketHttp("POST", "/api/users/", { token: t.world.tokens.staff, body: { username }, headers: { "x-forwarded-for": forwardedFor } });
    expect(res.status).toBe(201);
  };
}

function overGraphqlHttp(t: TestApp, forwardedFor: string) {
  return async (username: string) => {
    const res = await t.socketHttp("POST", "/graphql", {
      token: t.world.tokens.staff,
      body: { query: CREATE_USER, variables: { username } },
      headers: { "x-forwarded-for": forwardedFor },
    });
    expect(res.body.errors).toBeUndefined();
  };
}

function overWebSocket(t: TestApp, forwardedFor: string) {
  return async (username: string) => {
    class Forwarded extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers: { "x-forwarded-for": forwardedFor } });
      }
    }
    const client = createClient({
      url: `ws://127.0.0.1:${t.port}/graphql`,
      webSocketImpl: Forwarded,
      connectionParams: { authorization: `Token ${t.world.tokens.staff}` },
      retryAttempts: 0,
    });
    try {
      const result = await new Promise<{ errors?: unknown }>((resolve, reject) => {
        client.subscribe({ query: CREATE_USER, variables: { username } }, { next: resolve, error: reject, complete: () => {} });
      });
      expect(result.errors).toBeUndefined();
    } finally {
      await client.dispose();
    }
  };
}

const TRANSPORTS = { REST: overHttp, "GraphQL over HTTP": overGraphqlHttp, "graphql-ws": overWebSocket };

describe("the address audit events record", () => {
  describe("with no trusted proxy (the default)", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    for (const [name, transport] of Object.entries(TRANSPORTS)) {
      it(`${name}: a forged X-Forwarded-For is ignored; the TCP peer is recorded`, async () => {
        expect(await recordedAddress(t, transport(t, "6.6.6.6"))).toBe("127.0.0.1");
      });
    }
  });

  describe("behind a trusted proxy", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ trustedProxies: ["127.0.0.1", "10.0.0.0/8"] });
    });
    afterAll(() => t.close());

    for (const [name, transport] of Object.entries(TRANSPORTS)) {
      it(`${name}: the right-most hop that is not a trusted proxy`, async () => {
        expect(await recordedAddress(t, transport(t, "6.6.6.6, 198.51.100.23, 10.4.4.4"))).toBe("198.51.100.23");
      });
    }
  });
});
