import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpResponse, startTestApp, type TestApp } from "../test/support/app.ts";
import { buildSplitData, type SplitData } from "../test/support/split-data.ts";
import { uuidListPath, uuidsOf } from "../test/support/list-uuids.ts";
import type { Case, ListCases, NarrowingCases } from "../test/support/narrowing-cases.ts";
import { restParameters } from "./collection-query.ts";
import type { RouteSpec } from "./route.ts";
import { DOMAIN_MODULES } from "../src/modules.ts";

/**
 * Every REST filter of every served list narrows it: for each parameter its contract reads, a value that, on data
 * built to be split by it, lists fewer items than the unfiltered list, all of them among its items. Each domain declares
 * its lists' cases beside its contracts (`src/<domain>/filters-narrow.cases.ts`, in the vocabulary of
 * test/support/narrowing-cases.ts), and a parameter without a case fails, so a filter added to a contract needs a case
 * that shows it narrowing. A parameter that cannot narrow on any data here (its concept has no rows to leave out) is
 * marked `inert` with the reason, and the case shows the list unchanged.
 */

const CASES_FILE = "filters-narrow.cases.ts";

type FilteredList = RouteSpec & Required<Pick<RouteSpec, "contract">>;
const isFilteredList = (route: RouteSpec): route is FilteredList => Boolean(route.kind === "list" && route.method === "GET" && route.contract);

/** Each domain of the registry with the lists it serves and its cases (none for a domain without the file). */
const DOMAINS = await Promise.all(
  DOMAIN_MODULES.map(async (module) => {
    const file = path.resolve(import.meta.dirname, "../src", module.name, CASES_FILE);
    const cases: NarrowingCases = existsSync(file) ? (await import(file)).NARROWING_CASES : {};
    return { name: module.name, cases, lists: module.rest.flatMap((surface) => surface.routes).filter(isFilteredList) };
  }),
);

let t: TestApp;
let d: SplitData;
beforeAll(async () => {
  t = await startTestApp();
  d = await buildSplitData(t);
});
afterAll(() => t.close());

const tokenFor = (one: Case) => (one.asViewer ? d.viewer.token : d.world.tokens.staff);

/** A request's filter: a case's one parameter, or none for the unfiltered list. */
type Filter = Record<string, string>;
const NO_FILTER: Filter = {};
const filterOf = (parameter: string, one: Case): Filter => ({ [parameter]: typeof one.value === "function" ? one.value(d) : one.value });

/** The data never changes, so each request is made once (the unfiltered lists serve every case of their path). */
const responses = new Map<string, Promise<HttpResponse<Array<{ uuid: string }>>>>();
function get(path: string, filter: Filter, token: string) {
  const url = uuidListPath(path, filter);
  let response = responses.get(`${token} ${url}`);
  if (!response) responses.set(`${token} ${url}`, (response = t.http("GET", url, { token })));
  return response;
}

/** The uuids a list holds (all of them: one page of at most 300). */
const uuids = async (path: string, filter: Filter, token: string) => uuidsOf(await get(path, filter, token), `${path} ${JSON.stringify(filter)}`);

const concrete = (path: string, list: ListCases | undefined) => path.replace(":uuid", list?.parent?.(d) ?? ":uuid");

/** The filtered list is a strict subset of the unfiltered one: empty when the filter matches nothing by design, else not. */
async function expectNarrowed(path: string, parameter: string, one: Case) {
  const all = await uuids(path, NO_FILTER, tokenFor(one));
  const kept = await uuids(path, filterOf(parameter, one), tokenFor(one));
  expect(kept.length, `${parameter} left all ${all.length} items`).toBeLessThan(all.length);
  expect(all).toEqual(expect.arrayContaining(kept));
  if (one.empties) expect(kept).toEqual([]);
  else expect(kept.length, `${parameter} left nothing`).toBeGreaterThan(0);
  return { all, kept };
}

/** An inert filter reads its value (a bad one is a 400) but lists the same items. */
async function expectUnchanged(path: string, parameter: string, one: Case) {
  const all = await uuids(path, NO_FILTER, tokenFor(one));
  expect(await uuids(path, filterOf(parameter, one), tokenFor(one))).toEqual(all);
  expect(all.length).toBeGreaterThan(0);
}

/** The action answers for an object the filter leaves out of `list` without it, and 404 with it; for one it keeps, 200. */
async function expectPickNarrowed(path: string, list: string, parameter: string, one: Case) {
  const { all, kept } = await expectNarrowed(list, parameter, one);
  const action = (object: string, filter: Filter) => get(path.replace(":uuid", object), filter, tokenFor(one));
  const [leftOut] = all.filter((uuid) => !kept.includes(uuid));
  expect((await action(leftOut, NO_FILTER)).status).toBe(200);
  expect((await action(leftOut, filterOf(parameter, one))).status, `${parameter} kept the object the path names`).toBe(404);
  if (kept.length) expect((await action(kept[0], filterOf(parameter, one))).status).toBe(200);
}

describe("every REST filter narrows its list", () => {
  for (const domain of DOMAINS) {
    describe(`src/${domain.name}`, () => {
      it(`${CASES_FILE} names only lists the domain serves`, () => {
        expect(Object.keys(domain.cases).filter((path) => !domain.lists.some((route) => route.path === path))).toEqual([]);
      });

      for (const route of domain.lists) {
        describe(route.path, () => {
          const list = domain.cases[route.path];
          const cases = list?.parameters ?? {};
          const parameters = restParameters(route.contract).map((parameter) => parameter.name);

          it("has a case for no parameter its contract does not read", () => {
            expect(Object.keys(cases).filter((name) => !parameters.includes(name))).toEqual([]);
          });

          for (const parameter of parameters) {
            const one = cases[parameter];
            if (!one) {
              it(parameter, () => expect.fail(`no case shows ?${parameter}= narrowing ${route.path}: add one to src/${domain.name}/${CASES_FILE}`));
              continue;
            }
            const check = () =>
              list?.picksFrom ? expectPickNarrowed(route.path, list.picksFrom, parameter, one) : expectNarrowed(concrete(route.path, list), parameter, one);
            if (one.inert) it(`${parameter} (cannot narrow: ${one.inert})`, () => expectUnchanged(concrete(route.path, list), parameter, one));
            else it(parameter, check);
          }
        });
      }
    });
  }
});
