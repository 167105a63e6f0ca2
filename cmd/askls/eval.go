package main

import (
	"context"
	"errors"
)

func runEval(ctx context.Context, args []string) error {
	return errors.New("askls eval: not built yet")
}
