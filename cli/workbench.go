package cli

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"curate/themes"
	"curate/ui"
	"curate/workspace"
)

// workbenchFlags are the `curate tui` flags; `curate` alone uses defaults.
type workbenchFlags struct {
	theme   string
	noMouse bool
	engine  string // where validations go: "" (Docker) or a registered engine
}

// openWorkbench runs the terminal workbench on the env's workspace.
func openWorkbench(ctx context.Context, env *Env) error {
	return runWorkbench(ctx, env, workbenchFlags{})
}

func runWorkbench(ctx context.Context, env *Env, f workbenchFlags) error {
	ws, err := env.Workspace(ctx)
	if err != nil {
		return err
	}
	cfg := ws.Config.UI
	keys, err := ui.NewKeyMap(cfg.Keys)
	if err != nil {
		return fmt.Errorf("%s: %w", ws.ConfigPath(), err)
	}
	if f.theme != "" {
		if _, err := themes.Lookup(f.theme); err != nil {
			return fmt.Errorf("--theme: %w", err)
		}
	}
	if !isTerminal(os.Stdout) {
		return errors.New("the workbench needs a terminal; use curate list / show / label in scripts")
	}
	// The background query reads from the terminal, so it must happen
	// before Bubble Tea takes the input over.
	dark := true
	if f.theme == "" && cfg.Theme == "" {
		dark = lipgloss.HasDarkBackground()
	}
	name, err := themes.Choose(f.theme, cfg.Theme, dark)
	if err != nil {
		return fmt.Errorf("%s: %w", ws.ConfigPath(), err)
	}
	palette, _ := themes.Lookup(name)
	r := lipgloss.DefaultRenderer()
	if themes.NoColor() {
		r.SetColorProfile(termenv.Ascii)
	}
	logFile, err := os.OpenFile(ws.LogPath(), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("workbench log: %w", err)
	}
	defer logFile.Close()
	logger := log.New(logFile, "", log.LstdFlags)
	logger.Printf("workbench opened on %s by %s (curate %s)", ws.Root, workspace.Actor(), version())
	mouse := !f.noMouse && (cfg.Mouse == nil || *cfg.Mouse)
	wsName := ws.Config.Workspace.Name
	if wsName == "" {
		wsName = filepath.Base(ws.Root)
	}
	c := &ui.Context{
		Styles: themes.Build(palette, r),
		Keys:   keys,
		Store:  ws.Store,
		Root:   ws.Root,
		Name:   wsName,
		Actor:  workspace.Actor(),
		Mouse:  mouse,
		Log:    logger,
	}
	opts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithContext(ctx)}
	if mouse {
		opts = append(opts, tea.WithMouseCellMotion())
	}
	err = ui.Run(ui.New(ui.Options{Context: c, ProbeDocker: true, Services: workbenchServices(env, ws, logger, f.engine)}), opts...)
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		err = nil // interrupted by a signal: a normal way out
	}
	if err != nil {
		logger.Printf("workbench stopped: %v", err)
	} else {
		logger.Print("workbench closed")
	}
	return err
}
