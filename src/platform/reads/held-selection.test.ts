import { describe, expect, it } from "vitest";
import { holdsSelection } from "./held-selection.ts";

const row = { id: "a", state: "OK", created: new Date(0), offering: { name: "Cluster", customerId: "c" }, project: null };

describe("holdsSelection", () => {
  it("holds a selection of fields the row has, to-one relations' fields included, and a null relation", () => {
    expect(holdsSelection(row, { select: { id: true, state: true, offering: { select: { name: true } }, project: { select: { name: true } } } })).toBe(true);
    expect(holdsSelection(row, {})).toBe(true);
  });

  it("does not hold a field or relation field the row lacks, an include, a list relation's arguments or a count", () => {
    expect(holdsSelection(row, { select: { id: true, username: true } })).toBe(false);
    expect(holdsSelection(row, { select: { offering: { select: { slug: true } } } })).toBe(false);
    expect(holdsSelection(row, { include: { offering: true } })).toBe(false);
    expect(holdsSelection(row, { select: { offering: { select: { name: true }, where: { name: "x" } } } })).toBe(false);
    expect(holdsSelection(row, { select: { _count: { select: { plans: true } } } })).toBe(false);
  });
});
