import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toHex } from "../platform/ids.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const post = (path: string, body: Record<string, unknown>) => t.http("POST", path, { token: t.world.tokens.staff, body });

describe("directory bodies report every field's errors together, as DRF does", () => {
  const CASES: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
    ["/api/users/", { email: 1 }, { username: ["This field is required."], email: ["Not a valid string."] }],
    ["/api/customers/", { abbreviation: 1 }, { name: ["This field is required."], abbreviation: ["Not a valid string."] }],
    ["/api/projects/", {}, { customer: ["This field is required."], name: ["This field is required."] }],
    ["/api/marketplace-service-providers/", { description: 1 }, { customer: ["This field is required."], description: ["Not a valid string."] }],
    [
      "/api/marketplace-provider-offerings/",
      { customer: "nope", type: "Marketplace.Basic", plans: [{}] },
      { customer: ["Invalid hyperlink - Object does not exist."], name: ["This field is required."], plans: ["Each plan needs a name."] },
    ],
  ];
  for (const [path, body, errors] of CASES) {
    it(`POST ${path}`, async () => {
      const res = await post(path, body);
      expect([res.status, res.body]).toEqual([400, errors]);
    });
  }

  it("add_user: a missing user and role together", async () => {
    const res = await post(`/api/projects/${t.world.project.uuid}/add_user/`, { expiration_time: "soon" });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(["expiration_time", "role", "user"]);
  });
});

describe("null counts as absent where it did before the bodies were declared", () => {
  it("add_user with expiration_time null grants without expiry", async () => {
    const user = await t.app.deps.db.user.create({ data: { username: "null-expiry" } });
    const res = await post(`/api/projects/${t.world.project.uuid}/add_user/`, { user: toHex(user.id), role: "PROJECT.MEMBER", expiration_time: null });
    expect([res.status, res.body.expiration_time]).toEqual([201, null]);
  });

  it("an offering with components and plans null has none", async () => {
    const body = { customer: t.world.provider.uuid, name: "Nulls", type: "Marketplace.Basic", components: null, plans: null };
    const res = await post("/api/marketplace-provider-offerings/", body);
    expect([res.status, res.body.components, res.body.plans]).toEqual([201, [], []]);
  });
});
