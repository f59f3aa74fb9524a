import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { failuresOf, fieldsOf } from "../../test/support/graphql-failures.ts";
import { parseUuid } from "../platform/ids.ts";

/** start_date is a DRF DateField: anything but a real calendar date of years 1–9999 is a field error, never a 500 or non_field_errors. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const WRONG_FORMAT = { start_date: ["Date has wrong format. Use one of these formats instead: YYYY-MM-DD."] };

const create = (body: Record<string, unknown>) =>
  t.http("POST", "/api/marketplace-orders/", {
    token: t.world.tokens.projectAdmin,
    body: {
      offering: `${t.baseUrl}/api/marketplace-provider-offerings/${t.world.offering.uuid}/`,
      project: `${t.baseUrl}/api/projects/${t.world.project.uuid}/`,
      attributes: { name: "dated" },
      ...body,
    },
  });

describe("order start_date", () => {
  for (const value of ["0000-01-01", "0000-12-31", "2024-02-30", "2023-02-29", "2024-04-31", "2024-13-01", "10000-01-01", "2024-1-01"]) {
    it(`${value} → 400 naming start_date, no order written`, async () => {
      const before = await t.app.deps.db.order.count();
      const res = await create({ start_date: value });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(WRONG_FORMAT);
      expect(await t.app.deps.db.order.count()).toBe(before);
    });
  }

  for (const value of ["0001-01-01", "0024-02-29", "0099-12-31", "2024-02-29", "9999-12-31"]) {
    it(`${value} is that very date (years 1–99 are not 19xx)`, async () => {
      const res = await create({ start_date: value });
      expect(res.status).toBe(201);
      expect(res.body.start_date).toBe(value);
      const stored = await t.app.deps.db.order.findUniqueOrThrow({ where: { id: parseUuid(res.body.uuid)! } });
      expect(stored.startDate!.toISOString().slice(0, 10)).toBe(value);
      expect((await t.http("GET", `/api/marketplace-orders/${res.body.uuid}/`, { token: t.world.tokens.staff })).body.start_date).toBe(value);
    });
  }

  it("GraphQL createOrder: year 0 is a startDate field error too", async () => {
    const result = await t.gql(
      `mutation($input: CreateOrderInput!) { createOrder(input: $input) { ... on Order { uuid } ${failuresOf("createOrder")} } }`,
      { input: { offeringUuid: t.world.offering.uuid, projectUuid: t.world.project.uuid, startDate: "0000-01-01" } },
      t.world.tokens.projectAdmin,
    );
    expect(result.data.createOrder).toMatchObject({ __typename: "ValidationError", code: "VALIDATION" });
    expect(fieldsOf(result.data.createOrder)).toEqual({ startDate: WRONG_FORMAT.start_date });
  });
});
