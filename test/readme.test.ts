import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { REST_API } from "../src/modules.ts";
import { ROLE_PERMISSIONS } from "../src/auth/permissions.ts";

const ROOT = new URL("..", import.meta.url).pathname;
/** The README and the reference under docs/, by path from the repository's root. */
const DOCUMENTS = new Map(
  ["README.md", ...readdirSync(path.join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)].map(
    (file) => [file, readFileSync(path.join(ROOT, file), "utf8")],
  ),
);
const everything = [...DOCUMENTS.values()].join("\n");

it("the README fits on two screens and leads to docs/", () => {
  const readme = DOCUMENTS.get("README.md")!;
  expect(readme.split("\n").length).toBeLessThanOrEqual(100);
  expect(readme).toContain("npm install && npm start");
  expect(readme).toContain("npm test");
});

it("the docs document every REST path of the route table", () => {
  const rest = DOCUMENTS.get("docs/rest.md")!;
  const undocumented = REST_API.routes.filter((route) => {
    const operation = /\/:uuid\/(\w+)\/$/.exec(route.path)?.[1];
    return !rest.includes(`\`${route.path}\``) && !(operation && rest.includes(`\`${operation}\``));
  }).map((route) => `${route.method} ${route.path}`);
  expect(undocumented).toEqual([]);
});

it("the permission table names every role", () => {
  for (const role of Object.keys(ROLE_PERMISSIONS)) expect(everything).toContain(`\`${role}\``);
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const anchorOf = (heading: string) => heading.trim().toLowerCase().replace(/[^\w\- ]/g, "").replaceAll(" ", "-");
const anchors = (text: string) => new Set([...text.matchAll(/^#{1,6} (.*)$/gm)].map(([, heading]) => anchorOf(heading)));

it("every relative link in the README and docs/ leads to a file and heading that exist", () => {
  const broken: string[] = [];
  for (const [file, text] of DOCUMENTS) {
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(target)) continue;
      const [linked, anchor] = target.split("#");
      const resolved = linked ? path.normalize(path.join(path.dirname(file), linked)) : file;
      if (!existsSync(path.join(ROOT, resolved))) broken.push(`${file}: ${target} (no file)`);
      else if (anchor && resolved.endsWith(".md") && !anchors(DOCUMENTS.get(resolved) ?? readFileSync(path.join(ROOT, resolved), "utf8")).has(anchor)) {
        broken.push(`${file}: ${target} (no heading)`);
      }
    }
  }
  expect(broken).toEqual([]);
});
