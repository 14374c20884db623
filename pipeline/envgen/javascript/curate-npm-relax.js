#!/usr/bin/env node
// curate-npm-relax NAME VERSION NOTES: set NAME to VERSION where
// package.json's dependencies, devDependencies or optionalDependencies
// name it (and in the lockfile's root entry), delete the lockfile's entries
// of NAME (packages ".../node_modules/NAME" with what is nested under them;
// lockfile v1 "dependencies"), and print one note of what changed, also
// appended to the file NOTES. It fails when nothing names NAME (a retry
// would fail the same way). Made by curate.
const fs = require("fs"), path = require("path");
const [p, v, notes] = process.argv.slice(2), did = [];
const read = (f) => { try { return JSON.parse(fs.readFileSync(f, "utf8")); } catch (e) { return null; } };
const set = (m, f) => {
  for (const k of ["dependencies", "devDependencies", "optionalDependencies"]) {
    const s = m && m[k] && m[k][p];
    if (typeof s === "string" && !s.includes(":") && s !== v) {
      if (f) did.push(f + " " + k + " " + s + " -> " + v);
      m[k][p] = v;
    }
  }
};
const m = read("package.json");
set(m, "package.json");
if (did.length) fs.writeFileSync("package.json", JSON.stringify(m, null, 2) + "\n");
for (const f of ["package-lock.json", "npm-shrinkwrap.json"]) {
  const l = read(f);
  if (!l) continue;
  const gone = [];
  for (const k of Object.keys(l.packages || {})) {
    if (("/" + k + "/").includes("/node_modules/" + p + "/")) {
      gone.push(k + (l.packages[k].version ? "@" + l.packages[k].version : ""));
      delete l.packages[k];
    }
  }
  const walk = (d, at) => {
    for (const k of Object.keys(d || {})) {
      if (k === p) {
        if (!l.packages) gone.push(at + k + "@" + d[k].version);
        delete d[k];
      } else walk(d[k].dependencies, at + k + " > ");
    }
  };
  walk(l.dependencies, "");
  if (l.packages) set(l.packages[""]);
  if (gone.length) {
    did.push(f + " without " + gone.join(", ") + ", the rest kept");
    fs.writeFileSync(f, JSON.stringify(l, null, 2) + "\n");
  }
}
if (!did.length) {
  console.log("curate: note: the npm registry has no version of " + p + " that the install asked for, and no manifest names it");
  process.exit(1);
}
const note = "curate: note: the npm registry has no version of " + p + " that the manifests pin; its newest, " + v + ", installed instead (" + did.join("; ") + ")";
console.log(note);
if (notes) {
  fs.mkdirSync(path.dirname(notes), { recursive: true });
  fs.appendFileSync(notes, note + "\n");
}
