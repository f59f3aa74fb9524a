import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { ROUTES } from "../rest-adapter/routes/index.ts";
import { ROLE_PERMISSIONS } from "../src/auth/permissions.ts";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

it("the README documents every REST path of the route table", () => {
  const undocumented = ROUTES.filter((route) => {
    const operation = /\/:uuid\/(\w+)\/$/.exec(route.path)?.[1];
    return !readme.includes(`\`${route.path}\``) && !(operation && readme.includes(`\`${operation}\``));
  }).map((route) => `${route.method} ${route.path}`);
  expect(undocumented).toEqual([]);
});

it("the README's permission table names every role", () => {
  for (const role of Object.keys(ROLE_PERMISSIONS)) expect(readme).toContain(`\`${role}\``);
});
