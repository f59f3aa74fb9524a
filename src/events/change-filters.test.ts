import { describe, expect, it } from "vitest";
import { argumentFilter } from "./change-filters.ts";

type Change = { offeringId: string; projectId: string; state: string | null; previousState: string | null };

const OFFERING = "6c1b0b3e-6f5a-4c53-9a43-0d1f3e2b8a11";
const PROJECT = "0b5e8f6a-2c3d-4e1f-8a9b-7c6d5e4f3a21";
const change = (over: Partial<Change> = {}): Change => ({ offeringId: OFFERING, projectId: PROJECT, state: "OK", previousState: "CREATING", ...over });
const ids = (offering: unknown, project: unknown): Array<[unknown, (c: Change) => string]> => [
  [offering, (c) => c.offeringId],
  [project, (c) => c.projectId],
];

describe("argumentFilter", () => {
  it("passes everything when no argument is given", () => {
    expect(argumentFilter(ids(null, undefined), null, (c: Change) => c.state)(change())).toBe(true);
    expect(argumentFilter(ids(null, undefined), [], (c: Change) => c.state)(change())).toBe(true);
  });

  it("compares uuid arguments in hex or dashed form with the payload's ids, all of them", () => {
    const hex = OFFERING.replaceAll("-", "");
    expect(argumentFilter(ids(hex, null), null, (c: Change) => c.state)(change())).toBe(true);
    expect(argumentFilter(ids(OFFERING.toUpperCase(), PROJECT), null, (c: Change) => c.state)(change())).toBe(true);
    expect(argumentFilter(ids(hex, PROJECT), null, (c: Change) => c.state)(change({ projectId: OFFERING }))).toBe(false);
  });

  it("keeps changes whose state is one of those asked for, the state read as the subscription says", () => {
    const deletedState = (c: Change) => c.state ?? c.previousState;
    expect(argumentFilter(ids(null, null), ["OK", "ERROR"], (c: Change) => c.state)(change())).toBe(true);
    expect(argumentFilter(ids(null, null), ["ERROR"], (c: Change) => c.state)(change())).toBe(false);
    expect(argumentFilter(ids(null, null), ["CREATING"], deletedState)(change({ state: null }))).toBe(true);
  });
});
