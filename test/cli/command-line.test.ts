import { expect, it } from "vitest";
import { integerOption } from "../../src/cli/command-line.ts";
import { START_ERRORS, StartError } from "../../src/core/errors.ts";

it("reads a whole number within its bounds, the bounds included", () => {
  expect(integerOption("--port", "0", 0, 65_535)).toBe(0);
  expect(integerOption("--port", "65535", 0, 65_535)).toBe(65_535);
  expect(integerOption("--poll-ms", "250", 1)).toBe(250);
  expect(integerOption("--poll-ms", String(Number.MAX_SAFE_INTEGER), 1)).toBe(Number.MAX_SAFE_INTEGER);
});

it.each(["", "-1", "1.5", "1e3", " 3", "3 ", "0x10", "+3", "three", "65536"])(
  "refuses %j as a usage error naming the flag, the text and the range",
  (text) => {
    let thrown: unknown;
    try {
      integerOption("--port", text, 0, 65_535);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StartError);
    expect((thrown as StartError).descriptor).toBe(START_ERRORS.USAGE);
    expect((thrown as StartError).message).toBe(`--port: '${text}' is not a valid number (an integer from 0 to 65535)`);
  },
);

it("refuses a number under the least it allows", () => {
  expect(() => integerOption("--mints", "0", 1)).toThrow(/--mints: '0' is not a valid number \(an integer from 1 to/);
});
