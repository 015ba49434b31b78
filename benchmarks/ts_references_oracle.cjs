// Oracle for benchmarks/ts_references_accuracy.py: TypeScript's LanguageService
// findReferences for a list of declaration name positions.
//
//   node ts_references_oracle.cjs <typescript package dir> <source root> [tsconfig.json] < queries.json
//
// queries.json: [{file, line, column}] (1-based; column in code points). Prints one JSON
// object per query: {query, groups: [{name, kind, refs: [{file, line, column, end_column,
// definition, write}]}]} where each group is one ReferencedSymbol (the symbol itself,
// aliases that rename it, implementations, ...). Positions are converted to code points.
"use strict";

const path = require("path");
const fs = require("fs");

const { ts, root, files, options } = require("./ts_oracle_program.cjs").load(process.argv.slice(2));
const texts = new Map(files.map((f) => [f, fs.readFileSync(f, "utf8")]));
const host = {
  getScriptFileNames: () => files,
  getScriptVersion: () => "1",
  getScriptSnapshot: (f) => {
    const text = texts.has(f) ? texts.get(f) : fs.existsSync(f) ? fs.readFileSync(f, "utf8") : undefined;
    return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
  },
  getCurrentDirectory: () => root,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: (f) => texts.has(f) || fs.existsSync(f),
  readFile: (f) => (texts.has(f) ? texts.get(f) : fs.readFileSync(f, "utf8")),
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());
const program = service.getProgram();

function rel(file) {
  return path.relative(root, file).split(path.sep).join("/");
}

// 1-based code-point column of a UTF-16 offset inside its line.
function location(sf, offset) {
  const lc = sf.getLineAndCharacterOfPosition(offset);
  const start = sf.getPositionOfLineAndCharacter(lc.line, 0);
  const column = Array.from(sf.text.slice(start, start + lc.character)).length + 1;
  return { line: lc.line + 1, column };
}

function position(sf, line, column) {
  const start = sf.getPositionOfLineAndCharacter(line - 1, 0);
  const lineText = sf.text.slice(start, sf.getLineEndOfPosition(start));
  const units = Array.from(lineText).slice(0, column - 1).join("").length;
  return start + units;
}

const queries = JSON.parse(fs.readFileSync(0, "utf8"));
for (const query of queries) {
  const fileName = path.join(root, query.file);
  const sf = program.getSourceFile(fileName);
  const groups = [];
  if (sf) {
    let found = [];
    try {
      found = service.findReferences(fileName, position(sf, query.line, query.column)) || [];
    } catch (e) {
      found = [];
    }
    for (const group of found) {
      const refs = [];
      for (const ref of group.references) {
        if (!ref.fileName.startsWith(root + path.sep)) continue;
        const target = program.getSourceFile(ref.fileName);
        if (!target) continue;
        const start = location(target, ref.textSpan.start);
        const end = location(target, ref.textSpan.start + ref.textSpan.length);
        refs.push({
          file: rel(ref.fileName),
          line: start.line,
          column: start.column,
          end_column: end.column,
          definition: !!ref.isDefinition,
          write: !!ref.isWriteAccess,
        });
      }
      groups.push({ name: group.definition.name, kind: group.definition.kind, refs });
    }
  }
  process.stdout.write(JSON.stringify({ query, groups }) + "\n");
}
