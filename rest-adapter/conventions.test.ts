import { randomUUID } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../test/support/app.ts";

const MAX_BODY_BYTES = 1000;
/** DRF's rendering: ISO-8601, UTC, `Z`, microseconds only when non-zero. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?Z$/;
const JSON_HEADERS = { "content-type": "application/json" };

let t: TestApp;
let staff: string;
beforeAll(async () => {
  t = await startTestApp({ maxBodyBytes: MAX_BODY_BYTES });
  staff = t.world.tokens.staff;
});
afterAll(() => t.close());

/** A raw request through node:http, to control headers fetch will not let us set (Host, chunked bodies). */
function rawRequest(options: { method: string; path: string; headers: Record<string, string>; chunks?: string[] }) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port: t.port, method: options.method, path: options.path, headers: options.headers }, (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : undefined }));
    });
    request.on("error", reject);
    for (const chunk of options.chunks ?? []) request.write(chunk);
    request.end();
  });
}

describe("request bodies", () => {
  const MALFORMED = ["{", '{"username": "x",}', "username=x", "{'username': 'x'}"];
  for (const raw of MALFORMED) {
    it(`malformed JSON ${JSON.stringify(raw)} → 400 with a parse error detail`, async () => {
      const res = await t.http("POST", "/api/users/", { token: staff, raw, headers: JSON_HEADERS });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/^JSON parse error - /);
    });
  }

  const NOT_AN_OBJECT: Array<[string, string]> = [
    ["[]", "list"],
    ['[{"username": "x"}]', "list"],
    ['"username"', "str"],
    ["42", "int"],
    ["4.5", "float"],
    ["true", "bool"],
    ["null", "NoneType"],
  ];
  for (const [raw, type] of NOT_AN_OBJECT) {
    it(`a JSON ${type} body (${raw}) → 400 non_field_errors`, async () => {
      const res = await t.http("POST", "/api/customers/", { token: staff, raw, headers: JSON_HEADERS });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${type}.`] });
    });
  }

  it("an empty body is read as {}", async () => {
    const res = await t.http("POST", "/api/customers/", { token: staff, raw: "", headers: JSON_HEADERS });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: ["This field is required."] });
  });

  const WRONG_TYPES: Array<[string, () => string, Record<string, unknown> | (() => Record<string, unknown>), Record<string, string[]>]> = [
    ["username: 123", () => "/api/users/", { username: 123 }, { username: ["Not a valid string."] }],
    ["username: null", () => "/api/users/", { username: null }, { username: ["This field may not be null."] }],
    ["is_staff: 'maybe'", () => "/api/users/", { username: "typed", is_staff: "maybe" }, { is_staff: ["Must be a valid boolean."] }],
    ["name: []", () => "/api/customers/", { name: [] }, { name: ["Not a valid string."] }],
    ["customer: 5", () => "/api/projects/", { customer: 5, name: "p" }, { customer: ["Incorrect type. Expected URL string, received int."] }],
    ["customer: null", () => "/api/projects/", { customer: null, name: "p" }, { customer: ["This field may not be null."] }],
    ["customer: unknown URL", () => "/api/projects/", { customer: "https://x/api/users/1/", name: "p" }, { customer: ["Invalid hyperlink - Object does not exist."] }],
    ["role: {}", () => `/api/customers/${t.world.provider.uuid}/add_user/`, () => ({ user: t.world.users.unrelated.uuid, role: {} }), { role: ["Not a valid string."] }],
    ["expiration_time: 'soon'", () => `/api/customers/${t.world.provider.uuid}/add_user/`, () => ({ user: t.world.users.unrelated.uuid, role: "CUSTOMER.OWNER", expiration_time: "soon" }), { expiration_time: [expect.stringMatching(/^Datetime has wrong format/) as never] }],
  ];
  for (const [name, path, body, errors] of WRONG_TYPES) {
    it(`${name} → 400 field errors`, async () => {
      const res = await t.http("POST", path(), { token: staff, body: typeof body === "function" ? body() : body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
    });
  }

  it("comment: {} on a transition → 400 and the state does not change", async () => {
    const ou = await t.world.offeringUser("CREATING");
    const res = await t.http("POST", `/api/marketplace-offering-users/${ou.uuid}/set_pending_account_linking/`, { token: staff, body: { comment: {} } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ comment: ["Not a valid string."] });
    expect((await t.app.deps.db.offeringUser.findUniqueOrThrow({ where: { id: ou.id } })).state).toBe("CREATING");
  });

  it(`a body over MAX_BODY_BYTES (${MAX_BODY_BYTES}) → 413, nothing created`, async () => {
    const res = await t.http("POST", "/api/customers/", { token: staff, body: { name: "Big", email: "x".repeat(MAX_BODY_BYTES) } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: "Request body is too large." });
    expect(await t.app.deps.db.customer.count({ where: { name: "Big" } })).toBe(0);
  });

  it("a body exactly at the limit is read", async () => {
    const body = JSON.stringify({ name: "At limit", abbreviation: "" });
    const raw = body.replace('"abbreviation"', `${" ".repeat(MAX_BODY_BYTES - body.length)}"abbreviation"`);
    expect(Buffer.byteLength(raw)).toBe(MAX_BODY_BYTES);
    const res = await t.http("POST", "/api/customers/", { token: staff, raw, headers: JSON_HEADERS });
    expect(res.status).toBe(201);
  });

  it("a chunked body without Content-Length is cut off at the limit → 413", async () => {
    const chunks = Array.from({ length: 20 }, (_, i) => (i === 0 ? '{"name": "Chunked", "email": "' : "y".repeat(100)));
    const res = await rawRequest({
      method: "POST",
      path: "/api/customers/",
      headers: { ...JSON_HEADERS, authorization: `Token ${staff}`, "transfer-encoding": "chunked" },
      chunks,
    });
    expect(res.status).toBe(413);
    expect(await t.app.deps.db.customer.count({ where: { name: "Chunked" } })).toBe(0);
  });
});

describe("form bodies, as DRF's default parsers read them", () => {
  const createCustomer = (raw: string, contentType: string) =>
    t.http("POST", "/api/customers/", { token: staff, raw, headers: { "content-type": contentType } });

  it("an HTML form (curl -d) logs in", async () => {
    const res = await t.http("POST", "/api-auth/password/", {
      raw: new URLSearchParams({ username: "staff", password: "x" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ non_field_errors: ["Unable to log in with provided credentials."] });
  });

  it("form fields reach the route's body contract: the last of a repeated name, field errors by name", async () => {
    const res = await createCustomer("name=first&name=Form%20Lab&abbreviation=FL", "application/x-www-form-urlencoded; charset=utf-8");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Form Lab", abbreviation: "FL" });
    const blank = await createCustomer("abbreviation=FL", "application/x-www-form-urlencoded");
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ name: ["This field is required."] });
  });

  it("a multipart form is read too", async () => {
    const form = new FormData();
    form.set("name", "Multipart Lab");
    const request = new Request("http://x/", { method: "POST", body: form });
    const res = await createCustomer(await request.text(), request.headers.get("content-type")!);
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("Multipart Lab");
  });

  it("a broken multipart body is a 400", async () => {
    const res = await createCustomer("--nope\r\n", "multipart/form-data; boundary=xyz");
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^Multipart form parse error/);
  });
});

describe("GET /api/", () => {
  it("maps every top-level collection to its absolute URL, without a token", async () => {
    const res = await t.http("GET", "/api/");
    expect(res.status).toBe(200);
    expect(res.body.users).toBe(`${t.baseUrl}/api/users/`);
    expect(res.body["marketplace-offering-users"]).toBe(`${t.baseUrl}/api/marketplace-offering-users/`);
    for (const url of Object.values<string>(res.body)) {
      const list = await t.http("GET", new URL(url).pathname, { token: staff });
      expect(list.status, url).toBe(200);
    }
  });

  it("/api answers as /api/ does, as every REST path does without its slash", async () => {
    expect((await t.http("GET", "/api")).body).toEqual((await t.http("GET", "/api/")).body);
  });
});

describe("uuids", () => {
  const BAD_PATH_UUIDS = ["not-a-uuid", "123", `${"a".repeat(31)}g`, `${randomUUID()}0`, "%20"];
  for (const bad of BAD_PATH_UUIDS) {
    it(`a malformed uuid in the path (${bad}) → 404`, async () => {
      for (const path of [`/api/customers/${bad}/`, `/api/marketplace-provider-offerings/${bad}/activate/`, `/api/marketplace-offering-users/${bad}/begin_creating/`]) {
        const res = await t.http(path.endsWith("/activate/") || path.endsWith("/begin_creating/") ? "POST" : "GET", path, { token: staff });
        expect(res.status, path).toBe(404);
        expect(res.body).toEqual({ detail: "Not found." });
      }
    });
  }

  it("an unknown but well-formed uuid → 404", async () => {
    const res = await t.http("GET", `/api/projects/${randomUUID()}/`, { token: staff });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: "Not found." });
  });

  it("dashed, hex and upper-case uuids address the same object; responses carry hex", async () => {
    const hex = t.world.offering.uuid;
    for (const form of [hex, t.world.offering.id, hex.toUpperCase(), t.world.offering.id.toUpperCase()]) {
      const res = await t.http("GET", `/api/marketplace-provider-offerings/${form}/`, { token: staff });
      expect(res.status, form).toBe(200);
      expect(res.body.uuid).toBe(hex);
      expect(res.body.customer_uuid).toBe(t.world.provider.uuid);
    }
  });

  const BAD_FILTERS: Array<[string, Record<string, string[]>]> = [
    ["/api/projects/?customer_uuid=zzz", { customer_uuid: ["Enter a valid UUID."] }],
    ["/api/marketplace-service-providers/?customer_uuid=123", { customer_uuid: ["Enter a valid UUID."] }],
    ["/api/marketplace-provider-offerings/?customer_uuid=abc", { customer_uuid: ["Enter a valid UUID."] }],
    ["/api/marketplace-offering-users/?provider_uuid=nope", { provider_uuid: ["Enter a valid UUID."] }],
    ["/api/marketplace-offering-users/?user_uuid=nope", { user_uuid: ["Enter a valid UUID."] }],
    ["/api/marketplace-offering-users/?offering_uuid=nope", { offering_uuid: ["“nope” is not a valid UUID."] }],
  ];
  for (const [path, errors] of BAD_FILTERS) {
    it(`a malformed uuid filter ${path} → 400`, async () => {
      const res = await t.http("GET", path, { token: staff });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
    });
  }

  it("uuid filters accept the dashed and the hex form", async () => {
    for (const form of [t.world.consumer.uuid, t.world.consumer.id]) {
      const res = await t.http("GET", `/api/projects/?customer_uuid=${form}`, { token: staff });
      expect(res.status).toBe(200);
      expect(res.body.map((p: { uuid: string }) => p.uuid)).toEqual([t.world.project.uuid]);
    }
  });
});

describe("paths and methods", () => {
  const UNKNOWN = ["/api/nothing-here/", "/api/customers/extra/segments/here/", `/api/customers/${randomUUID()}/bogus_action/`, "/api/v2/"];
  for (const path of UNKNOWN) {
    it(`unknown path ${path} → 404 Not found.`, async () => {
      const res = await t.http("GET", path, { token: staff });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: "Not found." });
    });
  }

  const WRONG_METHOD: Array<[string, () => string]> = [
    ["DELETE", () => "/api/customers/"],
    ["PUT", () => "/api/users/"],
    ["PATCH", () => `/api/customers/${t.world.provider.uuid}/`],
    ["DELETE", () => `/api/marketplace-provider-offerings/${t.world.offering.uuid}/`],
    ["GET", () => `/api/marketplace-provider-offerings/${t.world.offering.uuid}/activate/`],
    ["GET", () => `/api/projects/${t.world.project.uuid}/add_user/`],
    ["POST", () => "/api/users/me/"],
    ["POST", () => "/api/events/"],
  ];
  for (const [method, path] of WRONG_METHOD) {
    it(`${method} on a known path → 405`, async () => {
      for (const p of [path(), path().replace(/\/$/, "")]) {
        const res = await t.http(method, p, { token: staff, body: method === "GET" ? undefined : {} });
        expect(res.status, p).toBe(405);
        expect(res.body).toEqual({ detail: `Method "${method}" not allowed.` });
      }
    });
  }

  it("an anonymous wrong-method call is answered 401 first, as DRF authenticates before dispatch", async () => {
    const res = await t.http("DELETE", "/api/customers/");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Token");
  });

  it("paths work with and without the trailing slash", async () => {
    for (const path of ["/api/users/me/", "/api/users/me", `/api/projects/${t.world.project.uuid}/`, `/api/projects/${t.world.project.uuid}`]) {
      const res = await t.http("GET", path, { token: t.world.tokens.projectAdmin });
      expect(res.status, path).toBe(200);
    }
    const list = await t.http("GET", "/api/customers", { token: staff });
    expect(list.status).toBe(200);
    expect(list.headers.get("x-result-count")).toBe(String(await t.app.deps.db.customer.count()));
  });

  it("HEAD on a list answers with the count header and no body", async () => {
    const res = await t.http("HEAD", "/api/users/", { token: staff });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(res.headers.get("x-result-count")).toBe(String(await t.app.deps.db.user.count()));
  });
});

describe("response conventions", () => {
  it("url fields are absolute, built from the request host", async () => {
    const res = await t.http("GET", `/api/projects/${t.world.project.uuid}/`, { token: staff });
    expect(res.body.url).toBe(`${t.baseUrl}/api/projects/${t.world.project.uuid}/`);
    expect(res.body.customer).toBe(`${t.baseUrl}/api/customers/${t.world.consumer.uuid}/`);

    const viaHost = await rawRequest({
      method: "GET",
      path: `/api/projects/${t.world.project.uuid}/`,
      headers: { host: "api.localhost:8443", authorization: `Token ${staff}` },
    });
    expect(viaHost.status).toBe(200);
    expect(viaHost.body.url).toBe(`http://api.localhost:8443/api/projects/${t.world.project.uuid}/`);
    expect(viaHost.body.customer).toBe(`http://api.localhost:8443/api/customers/${t.world.consumer.uuid}/`);
  });

  it("Link headers use the request host too", async () => {
    const res = await t.http("GET", "/api/users/?page_size=2", { token: staff });
    expect(res.headers.get("link")).toContain(`<${t.baseUrl}/api/users/?page=2&page_size=2>; rel="next"`);
  });

  it("timestamps are UTC with a Z suffix", async () => {
    const bodies = await Promise.all(
      ["/api/users/me/", `/api/customers/${t.world.provider.uuid}/`, `/api/projects/${t.world.project.uuid}/`,
        `/api/marketplace-service-providers/${t.world.serviceProvider.uuid}/`, `/api/marketplace-provider-offerings/${t.world.offering.uuid}/`]
        .map((path) => t.http("GET", path, { token: staff }).then((r) => r.body)),
    );
    for (const body of bodies) {
      const stamp = body.created ?? body.date_joined;
      expect(stamp).toMatch(TIMESTAMP);
      expect(new Date(stamp).toISOString().slice(0, 19)).toBe(stamp.slice(0, 19));
    }
  });
});

describe("query parameters", () => {
  const PROTOTYPE_NAMES: Array<[string, string]> = [
    ["state=constructor", "state"], ["state=__proto__", "state"], ["o=constructor", "o"], ["o=-toString", "o"],
  ];
  it("a boolean filter set to a prototype name is not a boolean", async () => {
    const res = await t.http("GET", "/api/marketplace-provider-offerings/?shared=constructor", { token: staff });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ shared: ["Enter a valid boolean."] });
  });
  for (const [query, field] of PROTOTYPE_NAMES) {
    it(`${query} is an unknown choice, not a property of the choice table`, async () => {
      const res = await t.http("GET", `/api/marketplace-orders/?${query}`, { token: staff });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ [field]: [expect.stringMatching(/^Select a valid choice\. .* is not one of the available choices\.$/)] });
    });
  }
});
