import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { countSql } from "../../test/support/sql-counter.ts";
import { rowsPart } from "../../test/support/query-plans.ts";
import { toHex } from "../platform/ids.ts";
import { DEEP_PAGE_OFFSET } from "../platform/reads/paginate.ts";

const BASE = "/api/marketplace-offering-users/";
const BIG = 301;

let t: TestApp;
let staff: string;
/** The five records of the world's offering, oldest first. */
const small: string[] = [];
let bigOffering: string;

beforeAll(async () => {
  t = await startTestApp();
  staff = t.world.tokens.staff;
  const db = t.app.deps.db;
  for (let i = 1; i <= 5; i++) {
    const user = await db.user.create({ data: { username: `page${i}`, firstName: "Page", lastName: String(i) } });
    const ou = await db.offeringUser.create({
      data: { offeringId: t.world.offering.id, userId: user.id, username: `u${i}`, state: "OK", created: new Date(Date.UTC(2024, 0, i)) },
    });
    small.push(toHex(ou.id));
  }
  bigOffering = await offeringWithUsers("Big", BIG, () => null);
});
afterAll(() => t.close());

/** An offering with `count` offering users, each of a user of its own, named by `usernameOf` (their index): its uuid. */
async function offeringWithUsers(name: string, count: number, usernameOf: (i: number) => string | null): Promise<string> {
  const db = t.app.deps.db;
  const offering = await db.offering.create({
    data: { customerId: t.world.provider.id, name, type: "Marketplace.Slurm", state: "ACTIVE", pluginOptions: { service_provider_can_create_offering_user: true } },
  });
  const names = Array.from({ length: count }, (_, i) => `${name.toLowerCase()}${String(i).padStart(4, "0")}`);
  await db.user.createMany({ data: names.map((username) => ({ username })) });
  const users = await db.user.findMany({ where: { username: { in: names } }, select: { id: true } });
  await db.offeringUser.createMany({ data: users.map((u, i) => ({ offeringId: offering.id, userId: u.id, username: usernameOf(i) })) });
  return toHex(offering.id);
}

const get = (query: string) => t.http("GET", `${BASE}?${query}`, { token: staff });
const full = (query: string) => `${t.baseUrl}${BASE}${query ? `?${query}` : ""}`;

function parseLinks(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? "").split(", ")) {
    const match = /^<([^>]*)>; rel="(\w+)"$/.exec(part);
    if (match) links[match[2]] = match[1];
  }
  return links;
}

describe("Link header (DRF LinkHeaderPagination: first, prev, next, last)", () => {
  // Query keys are written in sorted order, as DRF re-encodes them, so links compare byte for byte.
  const q = (page: number | null) => `o=created&offering_uuid=${t.world.offering.uuid}${page ? `&page=${page}` : ""}&page_size=2`;

  it("page 1 of 3: first, next, last", async () => {
    const res = await get(q(1));
    expect(res.body.map((ou: { uuid: string }) => ou.uuid)).toEqual(small.slice(0, 2));
    expect(res.headers.get("x-result-count")).toBe("5");
    expect(res.headers.get("link")).toBe(
      `<${full(q(null))}>; rel="first", <${full(q(2))}>; rel="next", <${full(q(3))}>; rel="last"`,
    );
  });

  it("page 2 of 3: first, prev (without page), next, last", async () => {
    const res = await get(q(2));
    expect(res.body.map((ou: { uuid: string }) => ou.uuid)).toEqual(small.slice(2, 4));
    expect(res.headers.get("link")).toBe(
      `<${full(q(null))}>; rel="first", <${full(q(null))}>; rel="prev", <${full(q(3))}>; rel="next", <${full(q(3))}>; rel="last"`,
    );
  });

  it("last page: first, prev, last and no next", async () => {
    const res = await get(q(3));
    expect(res.body.map((ou: { uuid: string }) => ou.uuid)).toEqual(small.slice(4));
    expect(res.headers.get("link")).toBe(`<${full(q(null))}>; rel="first", <${full(q(2))}>; rel="prev", <${full(q(3))}>; rel="last"`);
  });

  it("a single page: first and last, both without page", async () => {
    const query = `o=created&offering_uuid=${t.world.offering.uuid}`;
    const res = await get(query);
    expect(res.body).toHaveLength(5);
    expect(res.headers.get("link")).toBe(`<${full(query)}>; rel="first", <${full(query)}>; rel="last"`);
  });

  it("an empty list: 200 [], count 0, first and last", async () => {
    const res = await get("state=Deleted");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get("x-result-count")).toBe("0");
    expect(res.headers.get("link")).toBe(`<${full("state=Deleted")}>; rel="first", <${full("state=Deleted")}>; rel="last"`);
  });

  it("following next from the first page visits every record once, then stops", async () => {
    const seen: string[] = [];
    let next: string | undefined = full(`o=created&offering_uuid=${t.world.offering.uuid}&page_size=2`);
    for (let guard = 0; next && guard < 10; guard++) {
      const res: Response = await fetch(next, { headers: { authorization: `Token ${staff}` } });
      expect(res.status).toBe(200);
      seen.push(...((await res.json()) as Array<{ uuid: string }>).map((ou) => ou.uuid));
      next = parseLinks(res.headers.get("link")).next;
    }
    expect(seen).toEqual(small);
  });

  // KNOWN BUG (rest-adapter/waldur.ts linkHeader): DRF's replace_query_param re-encodes the query with its keys
  // sorted; we append `page` after the other keys. Remove `.fails` once linkHeader sorts the keys.
  it("DRF sorts the query keys of every link (page before page_size)", async () => {
    const res = await get(`page_size=2&o=created&offering_uuid=${t.world.offering.uuid}`);
    expect(parseLinks(res.headers.get("link")).next).toBe(full(q(2)));
  });
});

describe("page and page_size", () => {
  const count = async (query: string) => {
    const res = await get(query);
    expect(res.status).toBe(200);
    return { items: res.body.length as number, total: res.headers.get("x-result-count"), links: parseLinks(res.headers.get("link")) };
  };
  const big = () => `offering_uuid=${bigOffering}`;

  it("page_size defaults to 10", async () => {
    expect(await count(big())).toMatchObject({ items: 10, total: String(BIG) });
  });

  it("page_size up to 300 is honoured; larger values are clamped to 300", async () => {
    expect((await count(`${big()}&page_size=300`)).items).toBe(300);
    const clamped = await count(`${big()}&page=1&page_size=1000`);
    expect(clamped.items).toBe(300);
    expect(clamped.links.last).toBe(full(`${big()}&page=2&page_size=1000`));
    expect((await count(`${big()}&page=2&page_size=1000`)).items).toBe(1);
  });

  it("a page_size that is not a positive integer falls back to 10", async () => {
    for (const size of ["0", "-5", "abc", ""]) expect((await count(`${big()}&page_size=${size}`)).items, size).toBe(10);
  });

  it("a page past the end, zero, negative or not a number → 404 Invalid page.", async () => {
    for (const page of ["4", "0", "-1", "abc"]) {
      const res = await get(`offering_uuid=${t.world.offering.uuid}&page_size=2&page=${page}`);
      expect(res.status, page).toBe(404);
      expect(res.body).toEqual({ detail: "Invalid page." });
    }
  });

  it("page 1 of an empty list is not out of range", async () => {
    const res = await get("state=Deleted&page=1");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});

describe("HEAD and field selection", () => {
  it("HEAD answers 200 with X-Result-Count and no body", async () => {
    const res = await t.http("HEAD", `${BASE}?offering_uuid=${t.world.offering.uuid}`, { token: staff });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-result-count")).toBe("5");
    expect(res.text).toBe("");
  });

  it("HEAD needs authentication like GET", async () => {
    const res = await t.http("HEAD", BASE);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Token");
  });

  it("?field= keeps only the named keys, in lists and in single records", async () => {
    const res = await get(`offering_uuid=${t.world.offering.uuid}&o=created&field=uuid&field=state`);
    expect(res.body).toEqual(small.map((uuid) => ({ uuid, state: "OK" })));
    const one = await t.http("GET", `${BASE}${small[0]}/?field=username&field=offering_uuid`, { token: staff });
    expect(one.body).toEqual({ username: "u1", offering_uuid: t.world.offering.uuid });
  });
});

describe(`deep pages (from ${DEEP_PAGE_OFFSET} rows skipped)`, () => {
  const DEEP = DEEP_PAGE_OFFSET + 30;
  let deepOffering: string;

  beforeAll(async () => {
    // Every third without a username, so that the order's NULLS LAST and the tiebreak both matter.
    deepOffering = await offeringWithUsers("Deep", DEEP, (i) => (i % 3 ? `login${i % 500}` : null));
  });

  it("pages past the offset list the same records, in the same order, as one shallow read of them", async () => {
    const query = `offering_uuid=${deepOffering}&o=-username`;
    const shallow = await get(`${query}&page_size=300&page=4`); // rows 900–1029, read in one statement
    expect(shallow.status).toBe(200);
    const paged: string[] = [];
    for (let page = 91; page <= 103; page++) {
      const res = await get(`${query}&page_size=10&page=${page}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-result-count")).toBe(String(DEEP));
      paged.push(...res.body.map((row: { uuid: string }) => row.uuid));
    }
    expect(paged).toEqual(shallow.body.map((row: { uuid: string }) => row.uuid));
  });

  it("reads the page's ids alone, then only those rows in full", async () => {
    const { texts } = await countSql(() => get(`offering_uuid=${deepOffering}&page_size=10&page=102`));
    // The statements of rows (the count rides in one of them as a "$value" column, fused-reads.ts).
    const reads = texts.filter((text) => /FROM "offering_users"/.test(text) && !/^SELECT (COUNT|sum)\(/i.test(text));
    expect(reads).toHaveLength(2);
    expect(rowsPart({ text: reads[0], values: [] }).text).toMatch(/^SELECT t0\."id" AS "id" FROM "offering_users" AS t0 [\s\S]*OFFSET 1010$/);
    expect(reads[1]).toMatch(/t0\."id" = ANY\(\$\d+::uuid\[\]\)/);
    expect(reads[1]).not.toMatch(/OFFSET/);
  });

  it("a page past the end is still a 404", async () => {
    expect((await get(`offering_uuid=${deepOffering}&page_size=10&page=104`)).status).toBe(404);
  });
});
