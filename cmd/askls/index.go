package main

import (
	"context"
	"errors"
)

func runIndex(ctx context.Context, args []string) error {
	return errors.New("askls index: not built yet")
}
