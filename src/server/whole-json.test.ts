import { expect, it } from "vitest";
import { wholeJson } from "./yoga.ts";

/** yoga's answers before Hono's Node adapter writes them: JSON read whole (written at once), streams untouched. */
it("reads a JSON answer whole, keeping its status and headers; passes a stream as it is", async () => {
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"errors":[{"message":"bad"}]}'));
      controller.close();
    },
  });
  const json = new Response(body, { status: 400, headers: { "content-type": "application/graphql-response+json; charset=utf-8", "x-extra": "1" } });
  const read = await wholeJson(json);
  expect(read).not.toBe(json);
  expect(read.status).toBe(400);
  expect(read.headers.get("x-extra")).toBe("1");
  expect(read.headers.get("content-type")).toBe("application/graphql-response+json; charset=utf-8");
  expect(await read.text()).toBe('{"errors":[{"message":"bad"}]}');

  const events = new Response(new ReadableStream(), { headers: { "content-type": "text/event-stream" } });
  expect(await wholeJson(events)).toBe(events);
});
