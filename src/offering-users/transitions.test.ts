import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OfferingUserState } from "../generated/prisma/client.ts";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { globalId } from "../../test/support/global-ids.ts";
import { OFFERING_USER_STATE_NAMES, OFFERING_USER_STATES } from "./states.ts";
import { OFFERING_USER_OPERATIONS, OFFERING_USER_TRANSITIONS } from "./transitions.ts";

const STATES = OFFERING_USER_STATE_NAMES;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe("offering-user transitions over REST: every operation from every state", () => {
  for (const operation of OFFERING_USER_OPERATIONS) {
    const rule = OFFERING_USER_TRANSITIONS[operation];
    for (const from of STATES) {
      const valid = (rule.from as readonly string[]).includes(from);
      it(`${operation} from ${from} ${valid ? `→ ${rule.to}` : "is rejected"}`, async () => {
        const ou = await t.world.offeringUser(from, { comment: "old" });
        const res = await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/${operation}/`, {
          token: t.world.tokens.providerOwner,
          body: { comment: "new", comment_url: "https://docs.example.org/link" },
        });
        const after = await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id: ou.id } });
        const events = await t.app.deps.db.event.count({ where: { scopes: { some: { scopeType: "OFFERING_USER", scopeId: ou.id } } } });
        if (valid) {
          expect(res.status).toBe(200);
          expect(res.text).toBe("");
          expect(after.state).toBe(rule.to);
          expect(events).toBe(1);
        } else {
          expect(res.status).toBe(400);
          expect(res.body.detail).toBe(
            `Cannot transition to ${OFFERING_USER_STATES[rule.to].label} from current state: ${OFFERING_USER_STATES[from].code}. ` +
              `Valid states for operation: ${rule.from.map((s) => OFFERING_USER_STATES[s].label).join(", ")}.`,
          );
          expect(after.state).toBe(from);
          expect(after.serviceProviderComment).toBe("old");
          expect(events).toBe(0);
        }
      });
    }
  }
});

describe("comment effects", () => {
  it("set_pending_* store the comment (sanitised) and URL; set_validation_complete clears both", async () => {
    const ou = await t.world.offeringUser("CREATING");
    const token = t.world.tokens.providerManager;
    const pending = await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/set_pending_additional_validation/`, {
      token,
      body: { comment: '<p onclick="steal()">Upload your ID</p><script>alert(1)</script>', comment_url: "https://id.example.org" },
    });
    expect(pending.status).toBe(200);
    const stored = await t.http("GET", `/api/marketplace-offering-users/${ou.uuid}/`, { token });
    expect(stored.body.state).toBe("Pending additional validation");
    expect(stored.body.service_provider_comment).toBe("<p>Upload your ID</p>");
    expect(stored.body.service_provider_comment_url).toBe("https://id.example.org");

    const done = await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/set_validation_complete/`, { token });
    expect(done.status).toBe(200);
    const cleared = await t.http("GET", `/api/marketplace-offering-users/${ou.uuid}/`, { token });
    expect(cleared.body).toMatchObject({ state: "OK", service_provider_comment: "", service_provider_comment_url: "" });
  });

  it("comment_url must be a URL", async () => {
    const ou = await t.world.offeringUser("CREATING");
    const res = await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/set_pending_account_linking/`, {
      token: t.world.tokens.providerOwner,
      body: { comment: "x", comment_url: "not a url" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ comment_url: ["Enter a valid URL."] });
    expect((await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id: ou.id } })).state).toBe("CREATING");
  });
});

describe("a transition's answer is the record as stored", () => {
  const FIELDS = "uuid state username isRestricted serviceProviderComment serviceProviderCommentUrl backendMetadata created modified";
  const readBack = (uuid: string) => t.gql(`{ offeringUser(uuid: "${uuid}") { ${FIELDS} } }`, {}, t.world.tokens.providerOwner);

  it.each([
    ["its own fields only (answered from the row as read and changed)", FIELDS],
    ["with a relation (read again after the change)", `${FIELDS} offering { name }`],
  ])("%s", async (_name, selection) => {
    const ou = await t.world.offeringUser("CREATING", { comment: "old" });
    const answer = await t.gql(
      `mutation { setPendingAccountLinkingOfferingUser(input: { id: "${globalId("OfferingUser", ou.uuid)}", comment: "Link your account", commentUrl: "https://docs.example.org/link" }) { ... on OfferingUser { ${selection} } } }`,
      {},
      t.world.tokens.providerOwner,
    );
    const stored = (await readBack(ou.uuid)).data?.offeringUser;
    expect(stored).toMatchObject({ state: "PENDING_ACCOUNT_LINKING", serviceProviderComment: "Link your account" });
    expect(answer.data?.setPendingAccountLinkingOfferingUser).toMatchObject(stored);
  });
});
