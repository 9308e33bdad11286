// The shell commands the README and the pages under docs/ show, read from their ```sh blocks.

/** A line of a shell block: a command, or a variable the reader sets (`S=http://…`). */
export interface ShownLine {
  page: string;
  line: number;
  text: string;
  definition: boolean;
}

const SHELL_FENCE = /^(\s*)```(?:sh|bash|shell|console)\s*$/;
const DEFINITION = /^[A-Za-z_]\w*=(?:'[^']*'|"[^"]*"|\S*)$/;

/** Every command and variable definition of the page's shell blocks, continuations joined, comments dropped. */
export function shownLines(page: string, markdown: string): ShownLine[] {
  const lines = markdown.split("\n");
  const shown: ShownLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = SHELL_FENCE.exec(lines[i]!);
    if (!fence) continue;
    const indent = fence[1]!.length;
    let pending = "";
    let start = 0;
    for (i++; i < lines.length && lines[i]!.trim() !== "```"; i++) {
      const raw = lines[i]!.slice(indent);
      if (!pending) start = i + 1;
      const text = withoutComment(raw);
      if (/\\\s*$/.test(text)) {
        pending += text.replace(/\\\s*$/, " ");
        continue;
      }
      const command = (pending + text).replace(/\s+/g, " ").trim();
      pending = "";
      if (command) shown.push({ page, line: start, text: command, definition: DEFINITION.test(command) });
    }
  }
  return shown;
}

/** The line up to a `#` that starts a shell comment (at a word's start, outside quotes). */
export function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === "\\" && quote === '"') i++;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === "\\") i++;
    else if (char === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}
