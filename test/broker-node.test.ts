import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { brokerUnderTest, deleteUser, deleteVhost, getQueue, listQueues, management, userExists, vhostExists, WALDUR_QUEUE } from "./support/broker.ts";
import { type StompConsumer, stompConsumer, stompLoginFails } from "./support/stomp.ts";

// The broker test infrastructure itself (scripts/rabbitmq-node.sh, test/support/broker.ts, test/support/stomp.ts):
// provision a vhost, user and queue the way Waldur does (site-agent-events.md §3.1), consume as the site agent does.
const broker = brokerUnderTest();

const hex = () => randomUUID().replaceAll("-", "");

describe.skipIf(!broker)("the private RabbitMQ node and the test helpers", () => {
  const vhost = hex();
  const user = hex();
  const token = hex();
  const queue = `subscription_${user}_offering_${hex()}_order`;
  const consumers: StompConsumer[] = [];

  afterAll(async () => {
    for (const consumer of consumers) await consumer.close();
    await deleteUser(user);
    await deleteVhost(vhost);
  });

  /** A management call as the server will make it, with fetch; returns the status. */
  async function put(path: string, body?: unknown): Promise<number> {
    const response = await management().request("PUT", path, body);
    const text = await response.text();
    if (!response.ok) throw new Error(`PUT ${path}: ${response.status} ${text}`);
    return response.status;
  }

  it("provisions like Waldur and delivers a published message to a site-agent-style STOMP consumer", async () => {
    const url = broker!.webStompUrl;
    expect(await vhostExists(vhost)).toBe(false);
    expect(await put(`/api/vhosts/${vhost}`)).toBe(201);
    expect(await put(`/api/users/${user}`, { password: token, tags: [] })).toBe(201);
    expect(await put(`/api/permissions/${vhost}/${user}`, { configure: ".*", write: ".*", read: ".*" })).toBe(201);
    expect(await put(`/api/queues/${vhost}/${queue}`, WALDUR_QUEUE)).toBe(201);
    expect(await put(`/api/queues/${vhost}/${queue}`, WALDUR_QUEUE)).toBe(204);
    expect(await vhostExists(vhost)).toBe(true);
    expect(await userExists(user)).toBe(true);

    const info = await getQueue(vhost, queue);
    expect(info).toMatchObject({ name: queue, vhost, durable: true, auto_delete: false, arguments: WALDUR_QUEUE.arguments });
    expect(await getQueue(vhost, `${queue}_missing`)).toBeNull();
    expect((await listQueues(vhost)).map((q) => q.name)).toEqual([queue]);

    const consumer = await stompConsumer({ url, login: user, passcode: token, vhost, queue });
    consumers.push(consumer);

    const payload = { order_uuid: hex(), order_state: "pending-provider", offering_uuid: hex() };
    const published = await fetch(`${new URL(broker!.managementUrl).origin}/api/exchanges/${vhost}/amq.default/publish`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from("guest:guest").toString("base64")}`, "content-type": "application/json" },
      body: JSON.stringify({ properties: { content_type: "application/json" }, routing_key: queue, payload: JSON.stringify(payload), payload_encoding: "string" }),
    });
    expect(published.status).toBe(200);
    expect(await published.json()).toEqual({ routed: true });

    const message = await consumer.next();
    expect(message.body).toEqual(payload);
    expect(message.destination).toBe(`/queue/${queue}`);
    expect(consumer.received).toHaveLength(1);

    // The helper's own publish, picked out by a predicate.
    expect(await management().publish(vhost, queue, { n: 2 })).toBe(true);
    expect((await consumer.next((d) => JSON.stringify(d.body) === '{"n":2}')).destination).toBe(`/queue/${queue}`);
  });

  it("refuses a wrong password, and a missing queue on SUBSCRIBE", async () => {
    const url = broker!.webStompUrl;
    expect(await stompLoginFails({ url, login: user, passcode: `${token}x`, vhost })).toBe(true);
    expect(await stompLoginFails({ url, login: user, passcode: token, vhost })).toBe(false);
    await expect(stompConsumer({ url, login: user, passcode: token, vhost, queue: `${queue}_missing` })).rejects.toThrow(/before the SUBSCRIBE was confirmed/);
  });

  it("cleans up", async () => {
    for (const consumer of consumers.splice(0)) await consumer.close();
    await deleteUser(user);
    await deleteVhost(vhost);
    expect(await userExists(user)).toBe(false);
    expect(await vhostExists(vhost)).toBe(false);
    expect(await getQueue(vhost, queue)).toBeNull();
  });
});
