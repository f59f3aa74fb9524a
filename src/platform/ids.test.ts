import { describe, expect, it } from "vitest";
import { parseUuid, toHex } from "./ids.ts";

describe("toHex", () => {
  it("renders a uuid as 32 lowercase hex characters, the same however many it rendered before", () => {
    const dashed = "0F8FAD5B-D9CB-469F-A165-70867728950E";
    expect(toHex(dashed)).toBe("0f8fad5bd9cb469fa16570867728950e");
    const many = Array.from({ length: 25_000 }, () => crypto.randomUUID());
    for (const uuid of many) expect(toHex(uuid)).toBe(uuid.replaceAll("-", ""));
    expect(toHex(dashed)).toBe("0f8fad5bd9cb469fa16570867728950e");
    expect(toHex(many[0]!)).toBe(many[0]!.replaceAll("-", ""));
    expect(parseUuid(" 0f8fad5bd9cb469fa16570867728950E ")).toBe("0f8fad5b-d9cb-469f-a165-70867728950e");
  });
});
