package main

import (
	"context"
	"errors"
)

func runDoctor(ctx context.Context, args []string) error {
	return errors.New("askls doctor: not built yet")
}
