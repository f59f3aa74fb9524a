import { describe, expect, it } from "vitest";
import { loadBrokerSettings } from "./broker-settings.ts";

describe("the site agents' broker settings", () => {
  it("are off without RABBITMQ_MANAGEMENT_URL and RABBITMQ_URL", () => {
    expect(loadBrokerSettings({})).toEqual({ broker: undefined });
  });

  it("take the administrator from the management URL and keep no credentials in the URLs", () => {
    const { broker } = loadBrokerSettings({ RABBITMQ_MANAGEMENT_URL: "http://admin:s%40cret@broker:15672/", RABBITMQ_URL: "amqp://broker:5672" });
    expect(broker).toMatchObject({
      managementUrl: "http://broker:15672",
      amqpUrl: "amqp://broker:5672",
      username: "admin",
      password: "s@cret",
      relayIntervalMs: 1000,
      claimSeconds: 30,
      retryMaxMs: 30000,
    });
  });

  it("refuse to start on half a configuration, a wrong scheme, a missing administrator or a bad number", () => {
    expect(() => loadBrokerSettings({ RABBITMQ_URL: "amqp://broker" })).toThrow(/Set both/);
    expect(() => loadBrokerSettings({ RABBITMQ_MANAGEMENT_URL: "amqp://a:b@broker", RABBITMQ_URL: "amqp://broker" })).toThrow(/http/);
    expect(() => loadBrokerSettings({ RABBITMQ_MANAGEMENT_URL: "http://broker", RABBITMQ_URL: "amqp://broker" })).toThrow(/administrator/);
    const base = { RABBITMQ_MANAGEMENT_URL: "http://a:b@broker", RABBITMQ_URL: "amqp://broker" };
    expect(() => loadBrokerSettings({ ...base, BROKER_CLAIM_SECONDS: "soon" })).toThrow(/BROKER_CLAIM_SECONDS/);
    expect(() => loadBrokerSettings({ ...base, BROKER_RELAY_INTERVAL_MS: "0" })).toThrow(/BROKER_RELAY_INTERVAL_MS/);
  });
});
