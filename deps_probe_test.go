package main

import (
	_ "github.com/alecthomas/chroma/v2/lexers"
	_ "github.com/alecthomas/chroma/v2/styles"
	_ "github.com/charmbracelet/bubbles/viewport"
	_ "github.com/charmbracelet/glamour"
	_ "github.com/charmbracelet/x/exp/teatest"
	_ "github.com/docker/docker/api/types/container"
	_ "github.com/docker/docker/client"
	_ "github.com/docker/docker/pkg/stdcopy"
	_ "github.com/google/go-github/v62/github"
)
