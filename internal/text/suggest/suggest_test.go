package suggest

import "testing"

func TestNearest(t *testing.T) {
	for _, tc := range []struct {
		word    string
		options []string
		want    string
	}{
		{"extrem", []string{"standard", "deep", "extreme"}, "extreme"},
		{"serv", []string{"search", "serve", "schedule"}, "serve"},
		{"limt", []string{"json", "limit", "project"}, "limit"},
		{"3", []string{"1", "2", "both", "neither"}, ""},
		{"zzz", []string{"json", "limit"}, ""},
		{"Deep", []string{"standard", "deep"}, "deep"},
	} {
		if got := Nearest(tc.word, tc.options); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}
