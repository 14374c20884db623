#!/usr/bin/env node
// curate-npm-focus DIR...: install an npm workspace with only the members
// in DIR... (the ones the tests need). npm install --workspace still
// resolves every member's dependencies, so one the tests never load can
// fail it; this lists only DIR... as the workspaces for the install and
// puts package.json and the lockfile back afterwards (the repository stays
// as the PR has it; node_modules keeps what was installed). Made by curate.
const fs = require("fs"), { spawnSync } = require("child_process");
const dirs = process.argv.slice(2);
const saved = {};
for (const f of ["package.json", "package-lock.json", "npm-shrinkwrap.json"]) {
  if (fs.existsSync(f)) saved[f] = fs.readFileSync(f);
}
const restore = () => { for (const [f, data] of Object.entries(saved)) fs.writeFileSync(f, data); };
const pkg = JSON.parse(saved["package.json"]);
if (Array.isArray(pkg.workspaces) || !pkg.workspaces) pkg.workspaces = dirs;
else pkg.workspaces.packages = dirs;
fs.writeFileSync("package.json", JSON.stringify(pkg, null, 2) + "\n");
console.log("curate: note: installing the workspace members " + dirs.join(", ") + " only");
const npm = (...extra) => spawnSync("npm", ["install", "--no-audit", "--no-fund", ...extra], { stdio: "inherit" }).status;
let status = npm();
if (status !== 0) status = npm("--ignore-scripts");
restore();
process.exit(status === null ? 1 : status);
