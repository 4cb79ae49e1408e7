package config

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The keys of Config, found by reflection on its toml tags, and how a
// variable's text is set into one.

// field is one key of Config and where it sits in the struct.
type field struct {
	key   string
	index []int
	env   string // the variable that overrides it (EnvName)
}

// fields lists every key once per process: the hooks load the
// configuration on every event, and reading struct tags by reflection on
// each walk cost more than the load itself.
var fields = sync.OnceValue(func() []field {
	var out []field
	var add func(t reflect.Type, prefix string, index []int)
	add = func(t reflect.Type, prefix string, index []int) {
		for i := 0; i < t.NumField(); i++ {
			tag := strings.Split(t.Field(i).Tag.Get("toml"), ",")[0]
			if tag == "" || tag == "-" {
				continue
			}
			key := tag
			if prefix != "" {
				key = prefix + "." + tag
			}
			idx := append(slices.Clone(index), i)
			if t.Field(i).Type.Kind() == reflect.Struct {
				add(t.Field(i).Type, key, idx)
				continue
			}
			out = append(out, field{key: key, index: idx, env: EnvName(key)})
		}
	}
	add(reflect.TypeOf(Config{}), "", nil)
	return out
})

// walk calls fn with every key of the Config v and its field.
func walk(v reflect.Value, fn func(key string, v reflect.Value)) {
	for _, f := range fields() {
		fn(f.key, v.FieldByIndex(f.index))
	}
}

// walkPair calls fn with every key and its field in the Configs a and b.
func walkPair(a, b reflect.Value, fn func(key string, a, b reflect.Value)) {
	for _, f := range fields() {
		fn(f.key, a.FieldByIndex(f.index), b.FieldByIndex(f.index))
	}
}

func setScalar(v reflect.Value, raw string) error {
	switch v.Kind() {
	case reflect.String:
		v.SetString(raw)
	case reflect.Bool:
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return fmt.Errorf("want true or false, got %q", raw)
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int64:
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return fmt.Errorf("want a whole number, got %q", raw)
		}
		v.SetInt(n)
	case reflect.Float64:
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return fmt.Errorf("want a number, got %q", raw)
		}
		v.SetFloat(f)
	case reflect.Slice:
		// A list of paths, as PATH spells one.
		v.Set(reflect.ValueOf(filepath.SplitList(raw)))
	default:
		return fmt.Errorf("unsupported kind %s", v.Kind())
	}
	return nil
}
