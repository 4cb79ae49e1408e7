package lint

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		name        string
		in          []Finding
		errs, warns int
	}{
		{"none", nil, 0, 0},
		{"warnings only", []Finding{{Severity: Warning}, {Severity: Warning}}, 0, 2},
		{"mixed", []Finding{{Severity: Error}, {Severity: Warning}, {Severity: Error}}, 2, 1},
	} {
		errs, warns := Count(tc.in)
		if errs != tc.errs || warns != tc.warns {
			t.Errorf("%s: Count = %d, %d; want %d, %d", tc.name, errs, warns, tc.errs, tc.warns)
		}
		if got, want := HasErrors(tc.in), tc.errs > 0; got != want {
			t.Errorf("%s: HasErrors = %v, want %v", tc.name, got, want)
		}
	}
}
