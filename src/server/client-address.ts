import { BlockList, isIP } from "node:net";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { family, proxyEntry, type ProxySettings, unmapped } from "../platform/settings/proxy-settings.ts";

const matchers = new WeakMap<string[], BlockList>();

function trustedMatcher(trustedProxies: string[]): BlockList {
  let list = matchers.get(trustedProxies);
  if (!list) {
    list = new BlockList();
    for (const { address, prefix } of trustedProxies.map(proxyEntry)) {
      if (prefix === undefined) list.addAddress(address, family(address));
      else list.addSubnet(address, prefix, family(address));
    }
    matchers.set(trustedProxies, list);
  }
  return list;
}

/**
 * The client's address: the TCP peer, unless the peer is a trusted proxy; then the right-most `X-Forwarded-For` hop
 * that is not a trusted proxy (each proxy appends the address it was connected from, so hops left of an untrusted
 * one may be forged). A hop that is not an address ends the walk at the last address seen. Without a peer (an
 * in-process request) nothing is known, so forwarding headers are not believed either.
 */
export function resolveClientAddress(
  trustedProxies: string[],
  peer: string | null | undefined,
  forwardedFor: string | string[] | null | undefined,
): string | null {
  if (!peer) return null;
  if (!trustedProxies.length) return unmapped(peer);
  const trusted = trustedMatcher(trustedProxies);
  const isTrusted = (address: string) => trusted.check(address, family(address));
  const hops = [forwardedFor ?? []].flat().join(",").split(",").map((hop) => unmapped(hop.trim()));
  let client = unmapped(peer);
  while (isTrusted(client) && hops.length) {
    const next = hops.pop() as string;
    if (!isIP(next)) break;
    client = next;
  }
  return client;
}

/** The TCP peer of a request served by @hono/node-server; undefined for in-process `fetch` calls. */
function peerAddress(c: Context): string | undefined {
  return c.env?.incoming ? getConnInfo(c).remote.address : undefined;
}

/** The client's address of an HTTP request (see resolveClientAddress); undefined when unknown. */
export function clientAddress(c: Context, settings: ProxySettings): string | undefined {
  return resolveClientAddress(settings.trustedProxies, peerAddress(c), c.req.header("x-forwarded-for")) ?? undefined;
}
