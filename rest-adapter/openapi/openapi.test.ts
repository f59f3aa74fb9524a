import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/app.ts";
import { REST_API } from "../../src/modules.ts";
import { openApiPath } from "./document.ts";

let t: TestApp;
let doc: any;
beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.http("GET", "/api/schema/")).body;
});
afterAll(() => t.close());

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]: [string, any]) => ({ path, method, operation })),
  );
const operation = (method: string, path: string) => doc.paths[path]?.[method.toLowerCase()];
const resolve = (value: any) => (value?.$ref ? value.$ref.split("/").slice(1).reduce((at: any, key: string) => at[key], doc) : value);
const parameter = (method: string, path: string, name: string) =>
  operation(method, path).parameters.map(resolve).find((p: any) => p.name === name);
const requestSchema = (method: string, path: string) => operation(method, path).requestBody.content["application/json"].schema;

describe("GET /api/schema/", () => {
  it("is public JSON, with or without the slash", async () => {
    const res = await t.http("GET", "/api/schema");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body).toEqual(doc);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("documents every route of the table, and nothing else (HEAD for each list)", () => {
    const routes = new Set(REST_API.routes.map((r) => `${r.method} ${openApiPath(r.path)}`));
    const lists = new Set(REST_API.routes.filter((r) => r.kind === "list").map((r) => `HEAD ${openApiPath(r.path)}`));
    const documented = new Set(operations().map(({ method, path }) => `${method.toUpperCase()} ${path}`));
    expect([...routes].filter((route) => !documented.has(route))).toEqual([]);
    expect([...documented].filter((op) => !routes.has(op) && !lists.has(op))).toEqual([]);
    expect(lists.size).toBeGreaterThan(0);
  });

  it("gives every operation a unique operationId, in Waldur's naming", () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operation("GET", "/api/marketplace-offering-users/").operationId).toBe("marketplace_offering_users_list");
    expect(operation("POST", "/api/marketplace-offering-users/{uuid}/set_ok/").operationId).toBe("marketplace_offering_users_set_ok");
    expect(operation("PATCH", "/api/marketplace-offering-users/{uuid}/update_comments/").operationId).toBe(
      "marketplace_offering_users_update_comments_partial_update",
    );
  });

  it("lists are paged bare arrays with X-Result-Count and Link", () => {
    const list = operation("GET", "/api/marketplace-offering-users/");
    expect(Object.keys(resolve(list.responses["200"]).headers)).toEqual(["X-Result-Count", "Link"]);
    expect(list.responses["200"].content["application/json"].schema).toEqual({
      type: "array",
      items: { $ref: "#/components/schemas/OfferingUser" },
    });
    expect(parameter("GET", "/api/marketplace-offering-users/", "page_size").schema).toMatchObject({ type: "integer", maximum: 300 });
    expect(parameter("GET", "/api/marketplace-offering-users/", "field").schema.items.enum).toContain("username");
  });

  it("query parameters are read off the route's readers: types, enums from GraphQL, repeatable lists", () => {
    const list = "/api/marketplace-offering-users/";
    expect(parameter("GET", list, "state").schema).toMatchObject({ type: "array", items: { type: "string" } });
    expect(parameter("GET", list, "state").schema.items.enum).toEqual(expect.arrayContaining(["Requested", "Pending account linking", "OK"]));
    expect(parameter("GET", list, "o").schema.items.enum).toEqual(expect.arrayContaining(["username", "-created"]));
    expect(parameter("GET", list, "offering_uuid").schema).toEqual({ type: "array", items: { type: "string", format: "uuid" } });
    expect(parameter("GET", list, "is_restricted").schema).toEqual({ type: "boolean" });
    expect(parameter("GET", list, "created_before").schema).toEqual({ type: "string", format: "date-time" });
    expect(parameter("GET", "/api/events/", "scope").schema).toMatchObject({ type: "string", format: "uri" });
  });

  it("request bodies are read off the route's readers, nested lists included", () => {
    const setUsage = requestSchema("POST", "/api/marketplace-component-usages/set_usage/");
    expect(setUsage.required).toEqual(["usages"]);
    expect(setUsage.properties.usages).toMatchObject({ type: "array", items: { type: "object", required: ["type", "amount"] } });
    expect(Object.keys(setUsage.properties.usages.items.properties)).toEqual(["type", "amount", "description", "recurring"]);
    const offering = requestSchema("POST", "/api/marketplace-provider-offerings/");
    expect(offering.properties.customer).toMatchObject({ type: "string", format: "uri" });
    expect(offering.properties.components.items.properties.billing_type.enum).toEqual(["fixed", "limit", "one", "usage"]);
    expect(requestSchema("POST", "/api/marketplace-offering-users/").oneOf).toEqual([
      { required: ["offering", "user"] },
      { required: ["offering_uuid", "user_uuid"] },
    ]);
    expect(requestSchema("PATCH", "/api/marketplace-offering-users/{uuid}/").required).toBeUndefined();
  });

  it("statuses follow the route: 201 creates, 204 deletes without content, errors as Waldur's bodies", () => {
    expect(Object.keys(operation("POST", "/api/marketplace-component-usages/set_usage/").responses)).toContain("201");
    expect(operation("POST", "/api/marketplace-component-usages/set_usage/").responses["201"].content).toBeUndefined();
    const remove = operation("DELETE", "/api/marketplace-offering-users/{uuid}/").responses;
    expect(remove["204"]).toEqual({ description: "No Content" });
    expect(remove["404"]).toEqual({ $ref: "#/components/responses/NotFound" });
    expect(parameter("DELETE", "/api/marketplace-offering-users/{uuid}/", "uuid")).toMatchObject({ in: "path", required: true });
    expect(resolve(remove["403"]).content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Detail" });
  });

  it("documents the answers any request may get: 414 for a long URI, 503 when the database is slow, 429 for writes", () => {
    const write = operation("POST", "/api/marketplace-component-usages/set_usage/").responses;
    const read = operation("GET", "/api/marketplace-offering-users/").responses;
    expect(Object.keys(write)).toEqual(expect.arrayContaining(["413", "414", "429", "503"]));
    expect(Object.keys(read)).toEqual(expect.arrayContaining(["414", "503"]));
    expect(Object.keys(read)).not.toContain("429");
    expect(Object.keys(resolve(write["429"]).headers)).toEqual(["Retry-After"]);
    expect(Object.keys(resolve(read["503"]).headers)).toEqual(["Retry-After"]);
  });

  it("public routes need no token; the others take Waldur's token", () => {
    expect(operation("GET", "/api/public-maintenance-announcements/").security).toEqual([]);
    expect(operation("POST", "/api-auth/password/").security).toEqual([]);
    expect(operation("GET", "/api/users/me/").security).toBeUndefined();
    expect(doc.security).toEqual([{ Token: [] }, { TokenQuery: [] }]);
    expect(doc.components.securitySchemes.Token).toMatchObject({ type: "apiKey", in: "header", name: "Authorization" });
  });
});

describe("real responses match the documented schemas", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajvFormats.default(ajv);
  const validators = new Map<string, (value: unknown) => string[]>();

  /** The documented schema of one response, with its `$ref`s pointing into the served document. */
  function validatorFor(method: string, path: string, status: number) {
    const template = Object.keys(doc.paths).find((p) => new RegExp(`^${p.replace(/\{\w+\}/g, "[^/]+")}$`).test(path.split("?")[0]));
    const key = `${method} ${template} ${status}`;
    if (!validators.has(key)) {
      if (!ajv.getSchema("gateway")) ajv.addSchema({ components: doc.components }, "gateway");
      const schema = resolve(operation(method, template!).responses[status]).content["application/json"].schema;
      const check = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"gateway#/components/')));
      validators.set(key, (value) => (check(value) ? [] : check.errors!.map((e) => `${e.instancePath} ${e.message}`)));
    }
    return validators.get(key)!;
  }

  async function expectDocumented(method: string, path: string, options: { token?: string; body?: unknown } = {}) {
    const res = await t.http(method, path, { token: t.world.tokens.staff, ...options });
    expect(validatorFor(method, path, res.status)(res.body), `${method} ${path} → ${res.status}`).toEqual([]);
    return res;
  }

  it("every list without path parameters, as staff", async () => {
    await t.world.offeringUser("CREATING", { username: "alice", comment: "hi" });
    await t.world.offeringUser();
    const order = await expectDocumented("POST", "/api/marketplace-orders/", {
      body: { offering: t.world.offering.uuid, project: t.world.project.uuid, attributes: { name: "alloc" }, limits: { cpu: 1 } },
    });
    expect(order.status).toBe(201);
    const lists = REST_API.routes.filter((r) => r.kind === "list" && !r.path.includes(":"));
    for (const route of lists) {
      const res = await expectDocumented("GET", route.path);
      expect(res.status, route.path).toBe(200);
    }
    const offeringUsers = await expectDocumented("GET", "/api/marketplace-offering-users/");
    expect(offeringUsers.body.length).toBeGreaterThanOrEqual(2);
  });

  it("retrievals, creations, shaped bodies and errors", async () => {
    const staff = { token: t.world.tokens.staff };
    await expectDocumented("GET", "/api/users/me/");
    await expectDocumented("GET", `/api/marketplace-provider-offerings/${t.world.offering.uuid}/`);
    await expectDocumented("GET", `/api/projects/${t.world.project.uuid}/`);
    await expectDocumented("GET", "/api/events/count/");
    const created = await expectDocumented("POST", "/api/marketplace-offering-users/", {
      body: { offering_uuid: t.world.offering.uuid, user_uuid: t.world.users.unrelated.uuid },
    });
    expect(created.status).toBe(201);
    const grant = await expectDocumented("POST", `/api/projects/${t.world.project.uuid}/add_user/`, {
      body: { user: t.world.users.unrelated.uuid, role: "PROJECT.MEMBER" },
    });
    expect(grant.status).toBe(201);
    expect((await expectDocumented("GET", `/api/marketplace-offering-users/${created.body.uuid}/`)).status).toBe(200);
    expect((await expectDocumented("GET", "/api/marketplace-offering-users/0123456789abcdef0123456789abcdef/", staff)).status).toBe(404);
    expect((await expectDocumented("POST", "/api/marketplace-offering-users/", { body: {} })).status).toBe(400);
    expect((await expectDocumented("GET", "/api/users/me/", { token: "0".repeat(40) })).status).toBe(401);
  });
});

describe("GET /api/docs/", () => {
  it("serves Swagger UI from local assets that load, pointed at /api/schema/", async () => {
    const redirect = await fetch(`${t.baseUrl}/api/docs`, { redirect: "manual" });
    expect(redirect.status).toBe(301);
    expect(new URL(redirect.headers.get("location")!, `${t.baseUrl}/api/docs`).pathname).toBe("/api/docs/");

    const page = await t.http("GET", "/api/docs/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.text).not.toMatch(/https?:\/\//);
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => new URL(url, `${t.baseUrl}/api/docs/`));
    expect(assets.map((url) => url.pathname)).toEqual(expect.arrayContaining(["/api/docs/swagger-ui-bundle.js", "/api/docs/swagger-ui.css"]));
    for (const url of assets) {
      const res = await fetch(url);
      expect(res.status, url.pathname).toBe(200);
      expect((await res.arrayBuffer()).byteLength, url.pathname).toBeGreaterThan(0);
    }

    const initializer = await t.http("GET", "/api/docs/swagger-initializer.js");
    const schemaUrl = /url: "([^"]+)"/.exec(initializer.text)![1];
    expect(new URL(schemaUrl, `${t.baseUrl}/api/docs/`).pathname).toBe("/api/schema/");
    expect((await t.http("GET", "/api/docs/package.json")).status).toBe(404);
    expect((await t.http("GET", "/api/docs/constructor")).status).toBe(404);
  });
});
