import { isIP } from "node:net";

/** Proxies whose `X-Forwarded-For` is believed: addresses and CIDR ranges, IPv4 or IPv6. */
export interface ProxySettings {
  trustedProxies: string[];
}

export const family = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4");

/** `::ffff:192.0.2.1`, as a dual-stack socket reports an IPv4 peer, is `192.0.2.1`. */
export const unmapped = (address: string) => {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  return v4 ?? address;
};

/** Throws on anything that is not an address or a CIDR range, so a typo fails the start instead of trusting nothing. */
export function proxyEntry(entry: string): { address: string; prefix?: number } {
  const [address, prefix, extra] = entry.split("/");
  const bits = isIP(address) === 6 ? 128 : 32;
  const valid = isIP(address) && extra === undefined && (prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= bits));
  if (!valid) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
  return { address: unmapped(address), prefix: prefix === undefined ? undefined : Number(prefix) };
}

/** `TRUSTED_PROXIES`: comma-separated addresses and CIDR ranges; none by default (forwarding headers are ignored). */
export function loadProxySettings(env: NodeJS.ProcessEnv = process.env): ProxySettings {
  const entries = (env.TRUSTED_PROXIES ?? "").split(",").map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) proxyEntry(entry);
  return { trustedProxies: entries };
}
