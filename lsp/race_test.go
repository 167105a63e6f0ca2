//go:build race

package lsp

func init() { raceEnabled = true }
