/** A seeded generator of hostile input: JSON values of every type, strings that break things, raw bodies, query strings. */

/** mulberry32: small, fast, and the same sequence for the same seed. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Runs one of the generators, chosen by weight. */
  weighted<T>(choices: ReadonlyArray<readonly [number, () => T]>): T {
    let roll = this.next() * choices.reduce((sum, [weight]) => sum + weight, 0);
    for (const [weight, generate] of choices) {
      roll -= weight;
      if (roll < 0) return generate();
    }
    return choices[choices.length - 1][1]();
  }
}

/** Where generated ids and hyperlinks point: real objects (so validation is reached) as well as unknown ones. */
export interface IdSource {
  /** A real id of an object served under `/api/<collection>/`, or of any object when the collection is unknown. */
  realId(random: Random, collection?: string): string | undefined;
}

const PIECES = [
  "\u0000", "\ud800", "\udfff", "\udc00\ud800", "\ud83d", "\ufeff", "\u202e", "\u200b", "\u0301", "\uffff", "\u{10ffff}",
  "é", "ß", "İ", "中文", "😀", "👩‍👩‍👧", "𝔘𝔫𝔦", "\r\n", "\t", "\u0007", "\\", '"', "'", "`", "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>", "%00", "%", "%zz", "../", "..\\", "${x}", "{{x}}", "' OR 1=1 --", "'; DROP TABLE users; --",
  "\\u0000", "\\x00", "*", "_", "%%", "?", "#", "&", "=", ",", ";", " ", "/", "null", "[]", "{}",
];

const WORDS = [
  "a", "x", "Requested", "OK", "Creating", "Deleted", "staff", "providerOwner", "projectMember", "demo-password", "cpu", "ram", "gpu", "CUSTOMER.OWNER", "PROJECT.ADMIN",
  "OFFERING.MANAGER", "CUSTOMER.MANAGER", "Marketplace.Slurm", "Marketplace.Basic", "usage", "fixed", "limit", "month",
  "quarterly", "total", "true", "false", "yes", "None", "0", "1", "-1", "1.5", "1e309", "NaN", "Infinity", "-created", "created",
  "name", "username", "information", "warning", "danger", "pending-provider", "executing", "erred", "In progress", "Create",
  "Update", "Terminate", "order_process", "membership_sync", "ssh-ed25519 AAAA", "ssh-rsa AAAAB3NzaC1yc2E=", "2030-01-01",
];

const DATES = [
  "2030-01-01T00:00:00Z", "2030-01-01", "2020-02-30", "2020-13-01T00:00:00Z", "1970-01-01T00:00:00Z", "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:59Z", "+275760-09-13T00:00:00Z", "-271821-04-20T00:00:00Z", "2030-01-01T25:61:61Z", "2030-01-01T00:00:00+99:99",
  "1e12", "yesterday", "2030-W01", "2030-01-01T00:00:00.123456789Z", "",
];

const NUMBERS = [0, -0, 1, -1, 0.5, 1.005, 99.999, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 53 + 2, 1e21, 1e308, -1e308, 5e-324, 123456789.123];

/** Number literals JSON.stringify cannot write: overflowing, underflowing, beyond 2^64. */
export const WILD_NUMBER_LITERALS = ["1e400", "-1e400", "1e-400", "123456789012345678901234567890", "-0.0", "0.1e1", "1E2", "100000000000000000000000000000000000000.5"];

const hex = (random: Random, length: number) => Array.from({ length }, () => "0123456789abcdef"[random.int(16)]).join("");
const dashed = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

export function uuidLike(random: Random, ids: IdSource, collection?: string): string {
  const real = ids.realId(random, collection) ?? hex(random, 32);
  const bare = real.replace(/-/g, "");
  return random.weighted<string>([
    [4, () => bare],
    [2, () => dashed(bare)],
    [1, () => bare.toUpperCase()],
    [2, () => hex(random, 32)],
    [1, () => hex(random, random.pick([0, 1, 31, 33, 36, 64]))],
    [1, () => `{${dashed(bare)}}`],
    [1, () => ` ${bare} `],
    [1, () => `${bare}${random.pick(PIECES)}`],
    [1, () => dashed(bare).replace(/-/g, "--")],
  ]);
}

export function hyperlinkLike(random: Random, ids: IdSource, collection?: string): string {
  const target = collection ?? random.pick(["users", "customers", "projects", "marketplace-provider-offerings", "marketplace-orders"]);
  const uuid = uuidLike(random, ids, collection);
  return random.weighted<string>([
    [5, () => `http://127.0.0.1/api/${target}/${uuid}/`],
    [1, () => `/api/${target}/${uuid}`],
    [1, () => `http://127.0.0.1/api/${random.pick(["nowhere", "users", "keys"])}/${uuid}/`],
    [1, () => random.pick(["javascript:alert(1)", "http://[::1", "http://", "ftp://x/api/users/1/", "//evil", "http://a b/"])],
    [1, () => uuid],
  ]);
}

export function text(random: Random, ids?: IdSource): string {
  return random.weighted<string>([
    [4, () => random.pick(WORDS)],
    [4, () => Array.from({ length: 1 + random.int(8) }, () => random.pick(PIECES)).join("")],
    [3, () => Array.from({ length: random.int(40) }, () => String.fromCharCode(32 + random.int(95))).join("")],
    [1, () => random.pick(PIECES).repeat(500 + random.int(20_000))],
    [1, () => "x".repeat(random.pick([255, 256, 4096, 4097, 65_536]))],
    [2, () => random.pick(DATES)],
    [1, () => random.pick(WILD_NUMBER_LITERALS)],
    [2, () => (ids ? uuidLike(random, ids) : hex(random, 32))],
    [1, () => (ids ? hyperlinkLike(random, ids) : "http://x/")],
    [1, () => ""],
  ]);
}

export function number(random: Random): number {
  return random.weighted<number>([
    [5, () => random.pick(NUMBERS)],
    [2, () => random.int(1000) - 500],
    [1, () => (random.next() - 0.5) * 10 ** random.int(30)],
  ]);
}

/** Any JSON value, nested up to `depth`. */
export function jsonValue(random: Random, ids?: IdSource, depth = 3): unknown {
  const leaves: Array<readonly [number, () => unknown]> = [
    [2, () => null],
    [2, () => random.chance(0.5)],
    [4, () => number(random)],
    [6, () => text(random, ids)],
  ];
  if (depth <= 0) return random.weighted(leaves);
  return random.weighted<unknown>([
    ...leaves,
    [2, () => Array.from({ length: random.int(5) }, () => jsonValue(random, ids, depth - 1))],
    [2, () => randomObject(random, ids, depth - 1)],
    [1, () => nested(random.pick([50, 1000, 20_000]), random.chance(0.5))],
    [1, () => new RawJson(random.pick(WILD_NUMBER_LITERALS))],
  ]);
}

export function randomObject(random: Random, ids?: IdSource, depth = 2): Record<string, unknown> {
  const keys = Array.from({ length: random.int(5) }, () => (random.chance(0.5) ? random.pick(WORDS) : text(random).slice(0, 60)));
  return Object.fromEntries(keys.map((key) => [key, jsonValue(random, ids, depth)]));
}

/** JSON text written as it is into a generated value: nesting deeper than JSON.stringify survives, numbers it cannot write. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify, except that RawJson pieces are copied verbatim. */
export function serialize(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(serialize).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${serialize(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** `[[[…]]]` or `{"a":{"a":…}}` as a value: deep enough to break recursive code. */
export const nested = (depth: number, asObject: boolean) =>
  new RawJson(asObject ? `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}` : `${"[".repeat(depth)}1${"]".repeat(depth)}`);

/** Bodies that are not a JSON object: broken JSON, other JSON types, deep nesting, odd number literals. */
export function rawGarbage(random: Random): string {
  const depth = random.pick([10, 5000, 100_000]);
  return random.weighted<string>([
    [3, () => random.pick(["{", "}", "[]", '"text"', "null", "12", "true", '{"a":', "{'a': 1}", "{a:1}", '{"a":1,}', "\ufeff{}", "\u0000", "{}{}", "NaN"])],
    [2, () => `${"[".repeat(depth)}${"]".repeat(depth)}`],
    [2, () => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`],
    [2, () => `{"${random.pick(WORDS)}": ${random.pick(WILD_NUMBER_LITERALS)}}`],
    [1, () => `{"a": 1, "a": 2, "__proto__": {"x": 1}, "constructor": {"prototype": {}}}`],
    [1, () => serialize(jsonValue(random))],
    [1, () => Array.from({ length: random.int(200) }, () => String.fromCharCode(random.int(0x3000))).join("")],
  ]);
}

/** Percent-encodes anything, lone surrogates included (as the bytes WTF-8 would give them). */
export function percentEncode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value]
      .map((char) => {
        const code = char.charCodeAt(0);
        if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
          return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join("");
        }
        return encodeURIComponent(char);
      })
      .join("");
  }
}

const RAW_QUERY_PIECES = ["%", "%z", "%zz", "%00", "%ED%A0%80", "%C0%AF", "%FF%FE", "%2", "+", "%2B", "&&", "==", "=", "?", "%26", "%3D", "[]", "[0]"];

/** A query string of known and random parameters, repeated and percent-encoded, with broken escapes among them. */
export function queryString(random: Random, names: string[], valueOf: (name: string) => string): string {
  const common = ["page", "page_size", "o", "field", "x-auth-token", "format"];
  const parts: string[] = [];
  for (let i = random.int(7); i > 0; i--) {
    const name = random.weighted<string>([
      [6, () => (names.length ? random.pick(names) : random.pick(common))],
      [2, () => random.pick(common)],
      [1, () => text(random).slice(0, 40)],
    ]);
    const repeats = random.chance(0.2) ? 2 + random.int(4) : 1;
    for (let r = 0; r < repeats; r++) {
      const value = random.chance(0.15) ? random.pick(RAW_QUERY_PIECES) : percentEncode(valueOf(name));
      parts.push(random.chance(0.05) ? percentEncode(name) : `${percentEncode(name)}=${value}`);
    }
  }
  if (random.chance(0.1)) parts.push(random.pick(RAW_QUERY_PIECES));
  return parts.join("&");
}

/** A path segment where a uuid belongs. */
export function pathSegment(random: Random, ids: IdSource, collection?: string): string {
  return random.weighted<string>([
    [8, () => percentEncode(uuidLike(random, ids, collection))],
    [2, () => percentEncode(text(random).slice(0, 200)) || "x"],
    [1, () => random.pick(["%", "%zz", "%ED%A0%80", "%00", "..", ".", "%2F", "%2e%2e", "-1", "1.5", "99999999999999999999999", "0x1"])],
  ]);
}
