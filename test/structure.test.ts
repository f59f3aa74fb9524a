import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { Prisma } from "../src/generated/prisma/client.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const LAYERS = ["src", "rest-adapter"];

/** The TypeScript files of the layers, generated code and tests aside. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sources(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/** Each file's relative imports (type-only ones too: a cycle of types is a cycle of meaning). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+\.ts)"/gms)].map(([, target]) => path.resolve(path.dirname(file), target));
}

/** Tarjan's strongly connected components of more than one node (files, or folders). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) visit(next);
      if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, low.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const files = LAYERS.flatMap((layer) => sources(path.join(ROOT, layer)));

it("no two files of src/ and rest-adapter/ import each other, however indirectly", () => {
  const graph = new Map(files.map((file) => [path.relative(ROOT, file), importsOf(file).map((target) => path.relative(ROOT, target))]));
  expect(cycles(graph)).toEqual([]);
});

/**
 * A file's folder: src/<folder>, a file directly in src/ on its own, or rest-adapter as a whole; src/platform is
 * split by kind (settings, database, reads, messaging, throttling), and each kind counts as a folder of its own.
 */
function folderOf(relative: string): string {
  const [layer, first, second, third] = relative.split(path.sep);
  if (layer !== "src") return layer;
  return first === "platform" && third !== undefined ? `src/platform/${second}` : `src/${first}`;
}

it("folders import one way: no two folders of src/ (nor rest-adapter/) depend on each other, however indirectly", () => {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = folderOf(path.relative(ROOT, file));
    const targets = graph.get(from) ?? new Set<string>();
    for (const target of importsOf(file)) if (folderOf(path.relative(ROOT, target)) !== from) targets.add(folderOf(path.relative(ROOT, target)));
    graph.set(from, targets);
  }
  expect(graph.size).toBeGreaterThan(25);
  expect([...graph.keys()]).toEqual(expect.arrayContaining(["src/platform", "src/platform/settings", "src/platform/database", "src/platform/reads"]));
  expect(cycles(new Map([...graph].map(([folder, targets]) => [folder, [...targets]])))).toEqual([]);
});

it("no production file of src/ or rest-adapter/ is over 300 lines", () => {
  const long = files.map((file) => [path.relative(ROOT, file), readFileSync(file, "utf8").split("\n").length - 1] as const).filter(([, lines]) => lines > 300);
  expect(long).toEqual([]);
});

it("src/platform speaks no REST: no REST paths and no REST parameter names (a collection's contract, src/collections, does)", () => {
  const platform = files.filter((file) => path.relative(ROOT, file).startsWith(`src${path.sep}platform${path.sep}`));
  expect(platform.length).toBeGreaterThan(40);
  const spoken = platform.filter((file) => /["'`]\/api\/|\brest:\s/.test(readFileSync(file, "utf8"))).map((file) => path.relative(ROOT, file));
  expect(spoken).toEqual([]);
});

/** A read of a model's delegate on Prisma's client (`ctx.db.offeringUser.findMany(`, `tx.event\n  .count(`). */
const PRISMA_READ = /\.\s*[a-z]\w*\s*\.\s*(?:findMany|findFirst|findFirstOrThrow|findUnique|findUniqueOrThrow|count)\s*\(/;
const models = new Set(Object.values(Prisma.ModelName).map((name) => name[0].toLowerCase() + name.slice(1)));
const readsOnPrisma = (text: string) => [...text.matchAll(new RegExp(PRISMA_READ, "g"))].filter(([read]) => models.has(read.split(".")[1].trim()));

it("one read path: outside src/platform, records and lists are read through src/platform/reads/sql/find.ts, not Prisma's client", () => {
  expect(readsOnPrisma("await ctx.db.offeringUser\n    .findMany({ where })").length).toBe(1);
  expect(readsOnPrisma("findMany(ctx.db, \"offeringUser\", { where }); (await selection()).count(); db.event.groupBy({ by })")).toEqual([]);
  const outside = files.filter((file) => !path.relative(ROOT, file).startsWith(`src${path.sep}platform${path.sep}`));
  expect(outside.length).toBeGreaterThan(100);
  const direct = outside.flatMap((file) => readsOnPrisma(readFileSync(file, "utf8")).map(([read]) => `${path.relative(ROOT, file)}: ${read.replace(/\s+/g, "")}`));
  expect(direct).toEqual([]);
});
