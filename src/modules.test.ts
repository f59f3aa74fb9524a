import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Kind, parse } from "graphql";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { RestSurface } from "../rest-adapter/surface.ts";
import type { DomainModule } from "./domain-module.ts";
import { DOMAIN_MODULES, REST_API, TALLY_TABLES } from "./modules.ts";
import type { TallyTable } from "./platform/database/tallies.ts";
import type { Topics } from "./platform/messaging/topics.ts";
import { internalSchema } from "./schema.ts";

const SRC = import.meta.dirname;
const folderOf = (module: DomainModule) => path.join(SRC, module.name);
const sourcesOf = (folder: string, prefix: string) =>
  readdirSync(folder).filter((name) => name.startsWith(prefix) && name.endsWith(".ts") && !name.endsWith(".test.ts"));

/** The folders under src/ that serve something: a REST surface or a GraphQL layer. */
const DOMAIN_FOLDERS = readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && ["rest.ts", "schema.ts"].some((file) => existsSync(path.join(SRC, entry.name, file))))
  .map((entry) => entry.name);

/** The files of the same folder that `file` imports, for their exports or their side effect. */
const siblingImports = (file: string) =>
  [...readFileSync(file, "utf8").matchAll(/^(?:import|export)\s(?:[^;]*?from\s+)?"\.\/([^"/]+\.ts)"/gms)].map(([, name]) => name);

/** Every file of the module's folder that its module.ts reaches through imports within the folder. */
function reachedFromModule(module: DomainModule): Set<string> {
  const reached = new Set<string>();
  const visit = (name: string) => {
    if (reached.has(name)) return;
    reached.add(name);
    for (const next of siblingImports(path.join(folderOf(module), name))) visit(next);
  };
  visit("module.ts");
  return reached;
}

/** The values a domain's files named `<prefix>*.ts` export that `is` recognises. */
async function exportedBy<T>(module: DomainModule, prefix: string, is: (value: unknown) => value is T): Promise<T[]> {
  const exports = await Promise.all(sourcesOf(folderOf(module), prefix).map((name) => import(path.join(folderOf(module), name))));
  return exports.flatMap((values: Record<string, unknown>) => Object.values(values).filter(is));
}

const isRestSurface = (value: unknown): value is RestSurface =>
  typeof value === "object" && value !== null && "routes" in value && "fragments" in value && Array.isArray(value.routes);
const isTallyTable = (value: unknown): value is TallyTable<unknown> =>
  typeof value === "object" && value !== null && "table" in value && "columns" in value && typeof value.table === "string";

const EACH_MODULE = DOMAIN_MODULES.map((module): [string, DomainModule] => [module.name, module]);

const typeConditionsOf = (text: string) =>
  parse(text).definitions.flatMap((definition) => (definition.kind === Kind.FRAGMENT_DEFINITION ? [definition.typeCondition.name.value] : []));

describe("the registry of domains (src/modules.ts)", () => {
  it("lists every domain folder that serves REST or GraphQL, each once, and nothing else", () => {
    const listed = DOMAIN_MODULES.map((module) => module.name);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...DOMAIN_FOLDERS].sort());
    expect(DOMAIN_FOLDERS).toEqual(expect.arrayContaining(["directory", "orders", "offering-users", "tokens"]));
  });

  it.each(EACH_MODULE)("%s: its module imports every schema*.ts file of its folder", (_, module) => {
    const reached = reachedFromModule(module);
    expect(sourcesOf(folderOf(module), "schema").filter((name) => !reached.has(name))).toEqual([]);
  });

  it.each(EACH_MODULE)("%s: its module names every REST surface and tally table it exports", async (_, module) => {
    expect(new Set(await exportedBy(module, "rest", isRestSurface))).toEqual(new Set(module.rest));
    expect(new Set(await exportedBy(module, "tallies", isTallyTable))).toEqual(new Set(module.tallies));
  });

  it("serves every module's REST routes and serializers, and the internal schema has the types they select from", () => {
    for (const module of DOMAIN_MODULES) {
      for (const surface of module.rest) {
        expect(REST_API.routes).toEqual(expect.arrayContaining(surface.routes));
        expect(REST_API.fragments).toEqual(expect.arrayContaining(surface.fragments));
      }
    }
    const missing = REST_API.fragments.flatMap((fragment) => typeConditionsOf(fragment.text)).filter((type) => !internalSchema.getType(type));
    expect(REST_API.fragments.length).toBeGreaterThan(DOMAIN_MODULES.length);
    expect(missing).toEqual([]);
  });

  it("folds every module's tally tables, each once", () => {
    const tables = TALLY_TABLES.map((tally) => tally.table);
    expect(new Set(tables).size).toBe(tables.length);
    expect(tables).toEqual(expect.arrayContaining(["offering_user_tallies", "event_tallies"]));
  });

  it("names every pub/sub topic, each in one module", () => {
    type NamedTopic = (typeof DOMAIN_MODULES)[number]["topics"][number];
    expectTypeOf<NamedTopic>().toEqualTypeOf<keyof Topics>();
    const topics = DOMAIN_MODULES.flatMap<string>((module) => module.topics);
    expect(new Set(topics).size).toBe(topics.length);
  });
});
