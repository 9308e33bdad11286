import ts from "typescript";

// The names the package exports, read from its entry points' syntax (test/docs/exports.test.ts checks docs/testing.md
// lists each; test/package/install.test.ts type-checks a file importing each from the installed package).

/** The package's entry points in src/, by the import path a project writes. */
export const ENTRY_POINTS = {
  "nft-service-simulator": "src/package/index.ts",
  "nft-service-simulator/msw": "src/msw/index.ts",
} as const;

/** The names a module exports, read from its syntax: declarations marked `export` and `export { … }` lists. */
export function exportedNames(source: string): string[] {
  const file = ts.createSourceFile("module.ts", source, ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause))
      names.push(...statement.exportClause.elements.map((element) => element.name.text));
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported) continue;
    if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations) names.push(declaration.name.getText(file));
    else if ("name" in statement && statement.name && ts.isIdentifier(statement.name as ts.Node))
      names.push((statement.name as ts.Identifier).text);
  }
  return [...new Set(names)];
}
