import { expect, it } from "vitest";
import { redactApiKey } from "../../src/contract-suite/http.ts";

it("never prints an API key", () => {
  expect(redactApiKey("http://x/api/v2/item/new?apiKey=secret&a=1")).toBe("http://x/api/v2/item/new?apiKey=***&a=1");
});

it("hides every apiKey of a URL, wherever it stands, up to the next parameter or fragment, and nothing else", () => {
  expect(redactApiKey("http://x/c?a=1&apiKey=one&apiKey=two#apiKey")).toBe(
    "http://x/c?a=1&apiKey=***&apiKey=***#apiKey",
  );
  expect(redactApiKey("http://x/c?myapiKey=kept&apiKeys=kept")).toBe("http://x/c?myapiKey=kept&apiKeys=kept");
  expect(redactApiKey("http://x/c")).toBe("http://x/c");
});
