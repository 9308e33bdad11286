import { describe, expect, it } from "vitest";
import { readSuiteOptions } from "../../src/cli/contract-test-options.ts";
import { START_ERRORS } from "../../src/core/errors.ts";

describe("the suite's options", () => {
  it("reads flags before BASE_URL and API_KEY", () => {
    const options = readSuiteOptions(["--base-url", "https://a.example", "--token-id", "7", "--allow-writes"], {
      BASE_URL: "https://b.example",
      API_KEY: "k",
    });
    expect(options).toMatchObject({
      baseUrl: "https://a.example",
      apiKey: "k",
      tokenId: 7,
      allowWrites: true,
      junitPath: "contract-test-results.xml",
    });
    expect(readSuiteOptions([], {})).toMatchObject({ baseUrl: undefined, allowWrites: false });
  });

  it("refuses what cannot be right", () => {
    expect(() => readSuiteOptions(["--collection", "0x12"], {})).toThrow(
      expect.objectContaining({ descriptor: START_ERRORS.USAGE }),
    );
    expect(() => readSuiteOptions(["--chain-id", "0"], {})).toThrow(
      "--chain-id: '0' is not a valid number (an integer from 1 to 9007199254740991)",
    );
    expect(() => readSuiteOptions([], { BASE_URL: "/" })).toThrow(/not an http\(s\) URL/);
    expect(() => readSuiteOptions(["--no-such-flag"], {})).toThrow();
  });
});
