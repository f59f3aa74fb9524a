import { expect } from "vitest";
import type { BrokerUnderTest } from "./broker.ts";
import { type StompConsumer, stompConsumer } from "./stomp.ts";

type Call = (method: string, path: string, body: unknown, token: string) => Promise<{ status: number; body: any }>;

/** A REST caller over `fetch` (in-process `app.fetch`, or a real socket), as the site agent calls. */
export const restCaller =
  (send: (request: Request) => Response | Promise<Response>, baseUrl: string): Call =>
  async (method, path, body, token) => {
    const response = await send(
      new Request(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Token ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

export interface AgentSubscription {
  subscription: { uuid: string; user_uuid: string };
  queue: { uuid: string; queue_name: string };
  consumer: StompConsumer;
}

/**
 * What the site agent does for one object type of one offering: register its event subscription, create the queue,
 * log in over web-STOMP (login = subscription uuid, passcode = token, vhost = user uuid) and subscribe.
 */
export async function subscribeAsAgent(
  call: Call,
  broker: BrokerUnderTest,
  { identityUuid, offeringUuid, objectType, token }: { identityUuid: string; offeringUuid: string; objectType: string; token: string },
): Promise<AgentSubscription> {
  const registered = await call("POST", `/api/marketplace-site-agent-identities/${identityUuid}/register_event_subscription/`, { observable_object_type: objectType }, token);
  expect([200, 201], JSON.stringify(registered.body)).toContain(registered.status);
  const subscription = registered.body;
  const queue = await call("POST", `/api/event-subscriptions/${subscription.uuid}/create_queue/`, { offering_uuid: offeringUuid, object_type: objectType }, token);
  expect([200, 201], JSON.stringify(queue.body)).toContain(queue.status);
  const consumer = await stompConsumer({
    url: broker.webStompUrl,
    login: subscription.uuid,
    passcode: token,
    vhost: subscription.user_uuid,
    queue: queue.body.queue_name,
  });
  return { subscription, queue: queue.body, consumer };
}

/** Registers an agent identity for the offering (as its provider does) and answers its uuid. */
export async function agentIdentity(call: Call, offeringUuid: string, token: string, name = "agent") {
  const identity = await call("POST", "/api/marketplace-site-agent-identities/", { offering: offeringUuid, name }, token);
  expect(identity.status, JSON.stringify(identity.body)).toBe(201);
  return identity.body.uuid as string;
}
