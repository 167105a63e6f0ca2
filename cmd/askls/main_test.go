package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestUnknownCommandIsUsageError(t *testing.T) {
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"frobnicate"}, &stderr)
	if err == nil || exitCode(err) != 2 {
		t.Fatalf("run(frobnicate) = %v (exit %d), want a usage error with exit 2", err, exitCode(err))
	}
	if !strings.Contains(stderr.String(), "commands:") {
		t.Errorf("usage not printed; stderr = %q", stderr.String())
	}
}

func TestHelpListsEveryCommand(t *testing.T) {
	var stderr bytes.Buffer
	if err := run(context.Background(), []string{"help"}, &stderr); err != nil {
		t.Fatal(err)
	}
	for name := range commands {
		if !strings.Contains(stderr.String(), name) {
			t.Errorf("help does not list %q", name)
		}
	}
}
