package main

import (
	"context"
	"errors"
)

func runServe(ctx context.Context, args []string) error {
	return errors.New("askls serve: not built yet")
}
