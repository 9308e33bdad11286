import { describe, expect, it } from "vitest";
import { editDistance, nearestName } from "../../src/schemas/nearest-name.ts";

describe("the nearest known name", () => {
  it("is found for a near miss, case aside", () => {
    expect(editDistance("sortOrder", "sortDir")).toBe(3);
    expect(nearestName("sortOrder", ["perPage", "page", "sortBy", "sortDir"])).toBe("sortDir");
    expect(nearestName("perpage", ["perPage", "page"])).toBe("perPage");
    expect(nearestName("chainID", ["chainId", "name"])).toBe("chainId");
  });

  it("is not offered when nothing is near, when two are as near, or for the name itself", () => {
    expect(nearestName("colour", ["perPage", "page", "sortBy", "sortDir"])).toBeUndefined();
    expect(nearestName("ab", ["ax", "ay"])).toBeUndefined();
    expect(nearestName("page", ["page"])).toBeUndefined();
  });
});
