import type { ErrorDescriptor } from "../core/errors.ts";
import { OPERATIONS, SERVER_REFUSALS } from "../schemas/operations.ts";

/** Where the table stands in docs/api.md: `npm run openapi` rewrites what is between these, a test checks it. */
export const ERROR_TABLE_MARKERS = ["<!-- errors:start -->", "<!-- errors:end -->"] as const;

const COLUMNS: [string, string][] = [
  ["mintItem", "mint"],
  ["getItemEvents", "history"],
  ["getCollection", "one collection"],
  ["listCollections", "list"],
];

/** Every error an endpoint of the API may answer, from the error catalog and the route table, as a Markdown table. */
export function errorTable(): string {
  const answered = new Map<ErrorDescriptor, Set<string>>();
  for (const operation of OPERATIONS)
    for (const error of [...operation.errors, ...SERVER_REFUSALS])
      answered.set(error, (answered.get(error) ?? new Set()).add(operation.operationId));
  const rows = [...answered]
    .sort(([a], [b]) => a.status - b.status)
    .map(([error, by]) => {
      const where = COLUMNS.map(([operationId]) => (by.has(operationId) ? "✓" : "–"));
      return `| ${error.status} | \`${error.code}\` | ${error.message.replaceAll("|", "\\|")} | ${error.means} | ${where.join(" | ")} |`;
    });
  return [
    `| status | \`error\` | \`message\` | what it means | ${COLUMNS.map(([, name]) => name).join(" | ")} |`,
    `|---|---|---|---|${COLUMNS.map(() => "---").join("|")}|`,
    ...rows,
  ].join("\n");
}

/** `text` (docs/api.md) with its error table replaced by the current one. */
export function withErrorTable(text: string): string {
  const [start, end] = ERROR_TABLE_MARKERS;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) throw new Error(`the error table's markers (${start}, ${end}) are missing`);
  return `${text.slice(0, from + start.length)}\n${errorTable()}\n${text.slice(to)}`;
}
