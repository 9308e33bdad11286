import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { shownLines, withoutComment, type ShownLine } from "./shown-commands.ts";

// Every command the README and the pages under docs/ show in a shell block is run somewhere, so none
// can go stale: by .ci/run (npm install, npm test), or by a test that runs exactly that text through
// test/docs/run-shown.ts. fixtures/README.md and bench/README.md are not checked.

const PAGES = [
  "README.md",
  ...readdirSync("docs")
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** Commands a docs page shows that no test runs as shown, and why; the README may have none. */
const NOT_RUN: Record<string, string> = {
  "npx anvil --chain-id 56 --timestamp 1713565980 --state .anvil-56.json &":
    "anvil on the default port 8545 with the default world (about 20 s); test/chain/anvil.test.ts runs the same on free ports",
  "npm run simulate -- --rpc-url http://127.0.0.1:8545 --contracts .nodes.json":
    "needs that anvil; test/chain/contracts-file.test.ts records and attaches contracts on an anvil on a free port",
  "npx hardhat --config sim-node.config.ts node --port 8545 &":
    "Hardhat's node on the default port; test/chain/hardhat-node.test.ts runs it with test/chain/fixtures/hardhat-node.config.ts on a free port",
  "npm run simulate -- --rpc-url http://127.0.0.1:8545":
    "needs that node; test/chain/hardhat-node.test.ts runs --rpc-url against it",
  "npx anvil --chain-id 56 --state .team-56.json &":
    "anvil on the default port 8545; test/chain/team.test.ts runs several instances on an anvil on a free port",
  "npm run simulate -- --fixture none --chains 56 --rpc-url http://127.0.0.1:8545 --keys team-keys.json --contracts team-contracts.json --public-url http://127.0.0.1:3001 --port 3001 --no-rpc":
    "needs that anvil and a keys file; test/chain/team.test.ts starts instances so, on free ports, with temporary files",
  "npm run simulate -- --fixture none --chains 56 --rpc-url http://127.0.0.1:8545 --keys team-keys.json --contracts team-contracts.json --public-url http://127.0.0.1:3001 --port 3002 --no-rpc":
    "the second instance; test/chain/team.test.ts starts it so, attaching to what the first recorded",
  "npm run dev-keys -- --out team-keys.json":
    "writes into the working tree; test/cli/dev-keys.test.ts runs the command with --out in a temporary folder",
  "npm run simulate -- --state .sim-state":
    "would journal into the working tree; test/journal/kill.test.ts runs the command with --state on a temporary folder",
  "npx nft-sim proxy --upstream https://staging.example.com --port 3000 --junit proxy-results.xml":
    "needs a live deployment; test/proxy/cli.test.ts runs the command in front of a simulator and a broken target, on free ports",
  "npm run mutation":
    "every group's mutants, far longer than CI waits (docs/testing.md gives each group's time); " +
    "test/scripts/mutation-config.test.ts checks the groups' configuration and runs the access group's dry run",
};

const HOW =
  'Run it in a test, exactly as shown, with runShown("<command>") or startShown("<command>") from ' +
  "test/docs/run-shown.ts (the command as a string literal: this check reads it from the test's source; " +
  "http://127.0.0.1:3000 and https://staging.example.com may stand for a simulator the test started), " +
  'run the whole page with runShownPage("<page>"), or let .ci/run run it.';

function testSources(dir = "test"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testSources(path);
    // This file's own examples are not tests that run commands.
    return /\.test\.ts$/.test(entry.name) && path !== join("test", "docs", "commands.test.ts")
      ? [readFileSync(path, "utf8")]
      : [];
  });
}

/** The string literals passed to runShown / startShown, and the pages passed to runShownPage. */
export function testedCommands(sources: string[]): { commands: Set<string>; pages: Set<string> } {
  const commands = new Set<string>();
  const pages = new Set<string>();
  for (const source of sources) {
    for (const [, , body] of source.matchAll(/\b(?:runShown|startShown)\(\s*(["'`])((?:\\.|(?!\1).)*)\1/g))
      if (!body!.includes("${")) commands.add(body!.replace(/\\(.)/g, "$1"));
    for (const [, page] of source.matchAll(/\brunShownPage\(\s*"([^"]+)"/g)) pages.add(page!);
  }
  return { commands, pages };
}

/** The commands .ci/run runs (npm …), as words. */
function ciCommands(): string[][] {
  return readFileSync(".ci/run", "utf8")
    .split("\n")
    .map((line) => withoutComment(line).trim())
    .filter((line) => /^npm\s/.test(line))
    .map((line) => line.split(/\s+/));
}

/** .ci/run runs it: the same words, perhaps followed by more (npm test -- --reporter=…). */
function ranByCi(command: string, ci: string[][]): boolean {
  const words = command.split(" ");
  return ci.some((line) => words.every((word, i) => line[i] === word));
}

describe("the commands the docs show", () => {
  const shown = PAGES.flatMap((page) => shownLines(page, readFileSync(page, "utf8")));
  const commands = shown.filter((line) => !line.definition);
  const tested = testedCommands(testSources());
  const ci = ciCommands();
  const isRun = ({ page, text }: ShownLine) => tested.pages.has(page) || tested.commands.has(text) || ranByCi(text, ci);
  const where = (lines: ShownLine[]) => lines.map(({ page, line, text }) => `${page}:${line}  ${text}`).join("\n");

  it("are read from the README and every page under docs/", () => {
    expect(commands.filter(({ page }) => page === "README.md").length).toBeGreaterThanOrEqual(5);
    expect(PAGES).toEqual(expect.arrayContaining(["docs/flags.md", "docs/control-api.md", "docs/testing.md"]));
  });

  it("in the README are each run by a test or by .ci/run", () => {
    const unrun = commands.filter((line) => line.page === "README.md" && !isRun(line));
    expect(unrun, `The README shows commands no test runs:\n${where(unrun)}\n${HOW}`).toEqual([]);
  });

  it("in docs/ are each run by a test or by .ci/run, or listed in NOT_RUN with the reason", () => {
    const unrun = commands.filter((line) => line.page !== "README.md" && !isRun(line) && !(line.text in NOT_RUN));
    expect(unrun, `docs/ shows commands no test runs:\n${where(unrun)}\n${HOW}`).toEqual([]);
  });

  it("that tests run are still shown, and NOT_RUN names only commands the docs show", () => {
    const texts = new Set(commands.map(({ text }) => text));
    const gone = [...tested.commands, ...Object.keys(NOT_RUN)].filter((command) => !texts.has(command));
    expect(gone, "commands tests run (or NOT_RUN lists) that no page shows any more: update the test").toEqual([]);
    for (const page of tested.pages) expect(PAGES, `runShownPage("${page}")`).toContain(page);
  });
});

describe("reading shell blocks", () => {
  it("joins continued lines, drops comments outside quotes, and tells variable definitions from commands", () => {
    const page = [
      "text",
      "```sh",
      "S=http://127.0.0.1:3000/_sim   # the control API",
      "J='content-type: application/json'",
      "",
      "# a comment line",
      'curl -X POST $S/faults -H "$J" -d \'{"a":"#1"}\'   # adds a rule',
      "npm run contract-test -- --base-url https://x.example \\",
      "  --fuzz 10",
      "```",
      "```ts",
      "const notShell = 1;",
      "```",
      "  ```bash",
      "  npx anvil &",
      "  ```",
    ].join("\n");
    expect(shownLines("p.md", page).map(({ line, text, definition }) => ({ line, text, definition }))).toEqual([
      { line: 3, text: "S=http://127.0.0.1:3000/_sim", definition: true },
      { line: 4, text: "J='content-type: application/json'", definition: true },
      { line: 7, text: 'curl -X POST $S/faults -H "$J" -d \'{"a":"#1"}\'', definition: false },
      { line: 8, text: "npm run contract-test -- --base-url https://x.example --fuzz 10", definition: false },
      { line: 15, text: "npx anvil &", definition: false },
    ]);
  });

  it("finds the commands a test runs from its source", () => {
    const source = `await runShown("npm run simulate -- --help");\nconst sim = await startShown(\n  'npm run simulate',\n  { env });\nawait runShownPage("docs/control-api.md", { env });\nrunShown(command); // not a literal: not counted\nrunShown(\`curl '{"a":1}'\`); runShown(\`npm \${x}\`);`;
    const { commands, pages } = testedCommands([source]);
    expect([...commands]).toEqual(["npm run simulate -- --help", "npm run simulate", `curl '{"a":1}'`]);
    expect([...pages]).toEqual(["docs/control-api.md"]);
  });
});
