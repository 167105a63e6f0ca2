package main

import (
	"context"
	"errors"
)

func runAsk(ctx context.Context, args []string) error {
	return errors.New("askls ask: not built yet")
}
