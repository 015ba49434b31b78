// Oracle for benchmarks/ts_exports.py: every exported declaration of every module
// under a source folder, as the TypeScript compiler API sees it.
//
//   node ts_exports_oracle.cjs <typescript package dir> <source root> [tsconfig.json]
//
// Prints one JSON object per line: {file, name, path, kind, line, via}. Exports of a
// module are followed through aliases (`export { a as b } from`, `export *`) to their
// declarations; exported namespace members are listed with their dotted path.
"use strict";

const path = require("path");

const { ts, root, files, options } = require("./ts_oracle_program.cjs").load(process.argv.slice(2));
const program = ts.createProgram(files, options);
const checker = program.getTypeChecker();
const seen = new Set();

function rel(file) {
  return path.relative(root, file).split(path.sep).join("/");
}

function declarationName(decl) {
  if (ts.isSourceFile(decl)) return null;
  if (ts.isExportAssignment(decl)) return decl.isExportEquals ? "export=" : "default";
  const name = ts.getNameOfDeclaration(decl);
  if (!name) return "default";
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText();
}

function emit(record) {
  const key = `${record.file}\0${record.path}\0${record.line}`;
  if (seen.has(key)) return;
  seen.add(key);
  process.stdout.write(JSON.stringify(record) + "\n");
}

// A name bound to a whole module. `export * as ns from "./m"` declares `ns` where it
// is written; a name imported with `import * as ns` (or `import ns = require()`) and
// re-exported is a module alias, not a declaration: listed apart.
function moduleBinding(exported) {
  let symbol = exported;
  for (let hops = 0; symbol && hops < 32; hops++) {
    const decl = (symbol.declarations || [])[0];
    if (!decl) return;
    if (ts.isNamespaceExport(decl)) {
      const sf = decl.getSourceFile();
      if (!sf.fileName.startsWith(root + path.sep)) return;
      const line = sf.getLineAndCharacterOfPosition(decl.getStart()).line + 1;
      emit({ file: rel(sf.fileName), name: decl.name.text, path: decl.name.text, kind: "NamespaceExport", line, via: exported.name });
      return;
    }
    if (ts.isNamespaceImport(decl) || ts.isImportEqualsDeclaration(decl) || ts.isImportClause(decl)) {
      const target = checker.getAliasedSymbol(exported);
      const file = target && target.declarations && target.declarations[0] ? target.declarations[0].getSourceFile().fileName : "";
      const sf = decl.getSourceFile();
      const line = sf.getLineAndCharacterOfPosition(decl.getStart()).line + 1;
      emit({ file: rel(sf.fileName), name: exported.name, path: exported.name, kind: "ModuleAlias", line, via: rel(file) });
      return;
    }
    symbol = checker.getImmediateAliasedSymbol(symbol);
  }
}

function visitExports(moduleSymbol, exportingFile, prefix, depth) {
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    let target = exported;
    if (exported.flags & ts.SymbolFlags.Alias) {
      try {
        target = checker.getAliasedSymbol(exported);
      } catch (e) {
        continue;
      }
    }
    const declarations = target.declarations || [];
    for (const decl of declarations) {
      const sf = decl.getSourceFile();
      if (!sf.fileName.startsWith(root + path.sep)) continue;
      if (ts.isSourceFile(decl)) {
        if (prefix === "") moduleBinding(exported);
        continue;
      }
      let name = declarationName(decl);
      if (name === null) continue;
      let kind = ts.SyntaxKind[decl.kind];
      if (name === "export=" && ts.isExportAssignment(decl) && ts.isIdentifier(decl.expression)) {
        name = decl.expression.text;
      }
      const line = sf.getLineAndCharacterOfPosition(decl.getStart()).line + 1;
      const inNamespace = prefix !== "" && exported === target;
      emit({
        file: rel(sf.fileName),
        name,
        path: inNamespace ? prefix + name : name,
        kind,
        line,
        via: exported.name,
      });
    }
    if (depth < 4 && target.flags & (ts.SymbolFlags.NamespaceModule | ts.SymbolFlags.ValueModule) && target.exports) {
      // Namespaces only: a module symbol also lists the file itself (and augmentations).
      const decls = target.declarations || [];
      const inner = decls.some((d) => ts.isModuleDeclaration(d) && ts.isIdentifier(d.name)) && !decls.some((d) => ts.isSourceFile(d));
      if (inner) visitExports(target, exportingFile, (prefix || "") + target.name + ".", depth + 1);
    }
  }
}

for (const sf of program.getSourceFiles()) {
  if (!sf.fileName.startsWith(root + path.sep)) continue;
  const moduleSymbol = checker.getSymbolAtLocation(sf);
  if (!moduleSymbol) continue;
  visitExports(moduleSymbol, rel(sf.fileName), "", 0);
}
