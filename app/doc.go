// Package app holds the operations a curator runs, one function each,
// called by both faces: the command line (cli) and the workbench (ui, through
// the services cli wires in). Each takes a workspace and options, reports
// progress through callbacks, returns results, and stops when its context
// is cancelled. Pipeline stages do the work; app puts them together on a
// workspace (its store, its curate.toml, its folders).
package app
