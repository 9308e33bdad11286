import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bindingPackage, ensureEdrBinding } from "../../src/chain/edr-binding.ts";

// The binding's package is named as EDR names it; where it loads, nothing is fetched or said. A project whose npm ran
// on Node 20 (the binding left out, then put in place, then kept through a later install) is
// test/package/install.test.ts's.

describe("EDR's native binding", () => {
  it("is the optional package EDR lists for this platform, whose file EDR looks for in its own folder", () => {
    const { name, version, file, edrDir } = bindingPackage();
    expect(name).toMatch(/^@nomicfoundation\/edr-[a-z0-9]+-[a-z0-9]+(-gnu|-musl|-msvc)?$/);
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(file).toBe(`edr.${name.slice("@nomicfoundation/edr-".length)}.node`);
    expect(existsSync(join(edrDir, "index.js"))).toBe(true);
  });

  it("loads here, so the check says nothing", async () => {
    const said: string[] = [];
    await ensureEdrBinding((line) => said.push(line));
    expect(said).toEqual([]);
  });
});
