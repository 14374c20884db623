package ui

// The part-2 screens' actions join the palette, the help and curate.toml
// [ui.keys] like every other action.
func init() {
	actions = append(actions,
		Action{"validate_start", []string{"v"}, "validate… (current / marked / filtered)", "Runs"},
		Action{"rerun", []string{"r"}, "rerun the selected run", "Runs"},
		Action{"cancel_run", []string{"x"}, "cancel the selected run (asks)", "Runs"},
		Action{"failure_filter", []string{"f"}, "failure review: next outcome class", "Runs"},
		Action{"edit_dockerfile", []string{"e"}, "edit environment/Dockerfile in $EDITOR", "Runs"},
		Action{"edit_test", []string{"t"}, "edit tests/test.sh in $EDITOR", "Runs"},
		Action{"edit_solve", []string{"s"}, "edit solution/solve.sh in $EDITOR", "Runs"},
		Action{"log_focus", []string{"enter"}, "focus the log / the run list", "Runs"},
		Action{"log_wrap", []string{"w"}, "wrap long log lines", "log"},
		Action{"log_search", []string{"/"}, "search the log", "log"},
		Action{"log_next", []string{"n"}, "next match", "log"},
		Action{"log_prev", []string{"N"}, "previous match", "log"},
		Action{"log_first_error", []string{"E"}, "jump to the first error", "log"},
		Action{"log_follow", []string{"F"}, "follow the tail again", "log"},

		Action{"nudge_up", []string{"+", "=", "right", "l"}, "raise the value by one", "Quotas"},
		Action{"nudge_down", []string{"-", "left", "h"}, "lower the value by one", "Quotas"},
		Action{"next_field", []string{"]", "L"}, "next column (min / target / max)", "Quotas"},
		Action{"prev_field", []string{"[", "H"}, "previous column", "Quotas"},
		Action{"type_value", []string{"enter"}, "type a number (empty clears)", "Quotas"},
		Action{"save_quotas", []string{"S"}, "save budget and quotas to curate.toml", "Quotas"},
		Action{"discard_quotas", []string{"D"}, "discard unsaved changes", "Quotas"},

		Action{"toggle_format", []string{" ", "space"}, "choose / drop a format", "Export"},
		Action{"edit_dest", []string{"o"}, "edit the destination folder", "Export"},
		Action{"run_export", []string{"X"}, "run the export", "Export"},
		Action{"refresh_preview", []string{"p"}, "render the report preview again", "Export"},
		Action{"cancel_job", []string{"ctrl+x"}, "cancel the newest long job (asks)", "global"},
	)
}
