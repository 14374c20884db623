package main

import (
	"context"
	"fmt"
)

// openWorkbench runs the terminal workbench on the app's workspace.
func openWorkbench(ctx context.Context, app *App) error {
	ws, err := app.Workspace(ctx)
	if err != nil {
		return err
	}
	n, err := ws.Store.CountTasks(ctx)
	if err != nil {
		return err
	}
	return fmt.Errorf("workspace %s (%d tasks): the workbench is not built yet; use curate list / show / label", ws.Root, n)
}
