package main

import (
	"context"
	"errors"
)

func runSearch(ctx context.Context, args []string) error {
	return errors.New("askls search: not built yet")
}
