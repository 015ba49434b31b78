// Shared by the TypeScript oracles (ts_exports_oracle.cjs, ts_references_oracle.cjs): the
// compiler, the source files under a root and the compiler options both run with.
"use strict";

const path = require("path");
const fs = require("fs");

// TypeScript sources below `dir` (not in node_modules, nor in astmcp's index folder).
function sourceFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== ".astmcp") out.push(...sourceFiles(full));
    } else if (/\.(ts|tsx|mts|cts)$/.test(entry.name)) {
      out.push(full);
    }
  }
  return out;
}

function compilerOptions(ts, configArg) {
  // TS_ORACLE_LIB=1: with TypeScript's standard library (references found only through library
  // types, `Partial<T>` members or `xs.push({…})` keys, are then listed too)
  const withLib = process.env.TS_ORACLE_LIB === "1";
  const options = {
    noEmit: true,
    noLib: !withLib,
    ...(withLib ? { lib: ["lib.es2022.d.ts", "lib.dom.d.ts"] } : {}),
    types: [],
    skipLibCheck: true,
    allowJs: false,
    jsx: ts.JsxEmit.Preserve,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    target: ts.ScriptTarget.ESNext,
  };
  if (configArg) {
    const config = ts.readConfigFile(configArg, ts.sys.readFile).config || {};
    const paths = (config.compilerOptions || {}).paths;
    if (paths) {
      // Substitutions relative to the config's folder (the corpus's baseUrl is ".").
      const base = path.dirname(path.resolve(configArg));
      options.paths = {};
      for (const [pattern, targets] of Object.entries(paths)) {
        options.paths[pattern] = targets.map((t) => path.join(base, t));
      }
    }
  }
  return options;
}

// `<typescript package dir> <source root> [tsconfig.json]`: the compiler module, the absolute
// root, its source files and the compiler options.
function load(argv) {
  const [tsDir, rootArg, configArg] = argv;
  const ts = require(path.resolve(tsDir));
  const root = path.resolve(rootArg);
  return { ts, root, files: sourceFiles(root), options: compilerOptions(ts, configArg) };
}

module.exports = { load };
