import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { toHex } from "../platform/ids.ts";

/** Field errors name GraphQL's arguments over GraphQL and Waldur's fields over REST. */

const BASE = "/api/marketplace-offering-users/";
const MISSING = "0123456789abcdef0123456789abcdef";
const CREATE = `mutation($input: CreateOfferingUserInput!) { createOfferingUser(input: $input) { ... on OfferingUser { uuid } ${failuresOf("createOfferingUser")} } }`;

let t: TestApp;
let owner: string;
let userSeq = 0;
beforeAll(async () => {
  t = await startTestApp();
  owner = t.world.tokens.providerOwner;
});
afterAll(() => t.close());

async function freshUser() {
  userSeq += 1;
  return toHex((await t.app.deps.db.user.create({ data: { username: `field-errors${userSeq}` } })).id);
}

const closedOffering = async () =>
  toHex((await t.app.deps.db.offering.create({ data: { customerId: t.world.provider.id, name: "Closed", type: "Marketplace.Slurm", state: "ACTIVE" } })).id);

const fieldsOfResult = (result: { data?: Record<string, { fields?: Array<{ path: string; message: string }> }> | null }) =>
  fieldsOf(Object.values(result.data ?? {})[0] ?? {});

describe("createOfferingUser over GraphQL", () => {
  it("names the input's fields: offeringUuid and userUuid", async () => {
    const user = await freshUser();
    const create = (input: Record<string, unknown>) => t.gql(CREATE, { input }, owner);
    expect(fieldsOfResult(await create({ offeringUuid: MISSING, userUuid: user }))).toEqual({ offeringUuid: ["Object does not exist."] });
    expect(fieldsOfResult(await create({ offeringUuid: t.world.offering.uuid, userUuid: MISSING }))).toEqual({ userUuid: ["Object does not exist."] });
    expect(fieldsOfResult(await create({ offeringUuid: await closedOffering(), userUuid: user }))).toEqual({
      offeringUuid: ["It is not allowed to create users for current offering."],
    });
  });

  it("a comment URL that is not a URL names serviceProviderCommentUrl", async () => {
    const ou = await t.world.offeringUser("OK");
    const result = await t.gql(`mutation($id: ID!) { updateOfferingUserComments(input: { id: $id, serviceProviderCommentUrl: "nope" }) { ... on OfferingUser { uuid } ${failuresOf("updateOfferingUserComments")} } }`, { id: globalId("OfferingUser", ou.uuid) }, owner);
    expect(fieldsOfResult(result)).toEqual({ serviceProviderCommentUrl: ["Enter a valid URL."] });
  });
});

describe("the same errors over REST", () => {
  it("are `offering` and `user` whether the request gave URLs or uuids", async () => {
    const user = await freshUser();
    const cases: Array<[Record<string, string>, Record<string, string[]>]> = [
      [{ offering_uuid: MISSING, user_uuid: user }, { offering: ["Invalid hyperlink - Object does not exist."] }],
      [{ offering_uuid: t.world.offering.uuid, user_uuid: MISSING }, { user: ["Invalid hyperlink - Object does not exist."] }],
      [{ offering: await closedOffering(), user }, { offering: ["It is not allowed to create users for current offering."] }],
    ];
    for (const [body, expected] of cases) {
      const res = await t.http("POST", BASE, { token: owner, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(expected);
    }
  });

  it("a comment URL that is not a URL is service_provider_comment_url", async () => {
    const ou = await t.world.offeringUser("OK");
    const res = await t.http("PATCH", `${BASE}${ou.uuid}/update_comments/`, { token: owner, body: { service_provider_comment_url: "nope" } });
    expect(res).toMatchObject({ status: 400, body: { service_provider_comment_url: ["Enter a valid URL."] } });
  });
});
