package main

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/askls/askls/index"
)

// parseTune changes the fields of index.DefaultRanking() that spec names,
// "TestFactor=0.3,FeedbackWeight=0,PoolIDF=false" (field names of
// index.Ranking, case aside), for measuring settings without a rebuild.
func parseTune(spec string) (*index.Ranking, error) {
	rk := index.DefaultRanking()
	if strings.TrimSpace(spec) == "" {
		return &rk, nil
	}
	v := reflect.ValueOf(&rk).Elem()
	for _, kv := range strings.Split(spec, ",") {
		k, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return nil, fmt.Errorf("--tune: %q is not FIELD=VALUE", kv)
		}
		f := v.FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, k) })
		if !f.IsValid() {
			return nil, fmt.Errorf("--tune: index.Ranking has no field %q", k)
		}
		switch f.Kind() {
		case reflect.Float64:
			x, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return nil, fmt.Errorf("--tune %s: %w", k, err)
			}
			f.SetFloat(x)
		case reflect.Int:
			x, err := strconv.Atoi(val)
			if err != nil {
				return nil, fmt.Errorf("--tune %s: %w", k, err)
			}
			f.SetInt(int64(x))
		case reflect.Bool:
			x, err := strconv.ParseBool(val)
			if err != nil {
				return nil, fmt.Errorf("--tune %s: %w", k, err)
			}
			f.SetBool(x)
		default:
			return nil, fmt.Errorf("--tune: field %s cannot be set", k)
		}
	}
	return &rk, nil
}
