import { describe, expect, it } from "vitest";
import { globalId } from "./support/global-ids.ts";
import { orderIn } from "./support/order-fixtures.ts";
import { ed25519Key } from "./support/ssh-test-keys.ts";
import { useProxiedGateway } from "./support/proxied-gateway.ts";

/**
 * A change whose COMMIT went through answers success even when the connection is lost right after it: the answer is
 * read inside the change's transaction, never after it (issue 11 §4.3).
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("a connection lost right after COMMIT", () => {
  const gateway = useProxiedGateway("committed");

  /** Sends a request whose transaction's COMMIT is the last thing the gateway's connection delivers. */
  async function cutAfterCommit(path: string, body: unknown) {
    const cut = gateway.proxy.cutAfterNextCommit();
    const response = await gateway.fetch("POST", path, body);
    await cut;
    await gateway.proxy.resume();
    return response;
  }

  it("an SSH key created over REST answers 201 with the key", async () => {
    const response = await cutAfterCommit("/api/keys/", { public_key: ed25519Key("cut@after-commit"), name: "cut" });
    const { rows } = await gateway.observer.query("SELECT encode(uuid_send(id), 'hex') AS uuid FROM ssh_keys WHERE name = 'cut'");
    expect(rows).toHaveLength(1);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ uuid: rows[0].uuid, name: "cut" });
  });

  it("an order approved over GraphQL answers with the order and its relations", async () => {
    const order = await orderIn(gateway.seeding.prisma, gateway.world, "PENDING_PROVIDER");
    const response = await cutAfterCommit("/graphql", {
      query: `mutation { approveOrderByProvider(input: { id: "${globalId("Order", order.uuid)}" }) { ... on OrderActionResult { state order { uuid state project { name } } } } }`,
    });
    const { rows } = await gateway.observer.query("SELECT state FROM orders WHERE id = $1", [order.id]);
    expect(rows[0].state).toBe("EXECUTING");
    expect(await response.json()).toEqual({
      data: { approveOrderByProvider: { state: "EXECUTING", order: { uuid: order.uuid, state: "EXECUTING", project: { name: "Project" } } } },
    });
  });
});
