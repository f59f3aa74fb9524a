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

/** Answers `response`, or throws with its status and body when it is not one of `expected`. */
function expectStatus(what: string, response: { status: number; body: any }, expected: number[]) {
  if (!expected.includes(response.status)) throw new Error(`${what} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response;
}

export interface AgentSubscription {
  subscription: { uuid: string; user_uuid: string };
  queue: { uuid: string; queue_name: string };
  consumer: StompConsumer;
}

/**
 * What the site agent does for one object type of one offering: register its event subscription, create the queue,
 * log in over web-STOMP (login = subscription uuid, passcode = token, vhost = user uuid) and subscribe. Any other
 * answer than the agent accepts throws (so the bench can use it too).
 */
export async function subscribeAsAgent(
  call: Call,
  broker: BrokerUnderTest,
  { identityUuid, offeringUuid, objectType, token }: { identityUuid: string; offeringUuid: string; objectType: string; token: string },
): Promise<AgentSubscription> {
  const registered = await call("POST", `/api/marketplace-site-agent-identities/${identityUuid}/register_event_subscription/`, { observable_object_type: objectType }, token);
  const subscription = expectStatus("register_event_subscription", registered, [200, 201]).body;
  const queue = expectStatus(
    "create_queue",
    await call("POST", `/api/event-subscriptions/${subscription.uuid}/create_queue/`, { offering_uuid: offeringUuid, object_type: objectType }, token),
    [200, 201],
  );
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
  return expectStatus("creating the agent identity", identity, [201]).body.uuid as string;
}
