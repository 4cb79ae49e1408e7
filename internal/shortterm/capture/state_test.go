package capture

import "testing"

func FuzzParseState(f *testing.F) {
	f.Add([]byte(`{"offset":10,"journal_offset":5,"carried":[{"k":"x"}]}`))
	f.Add([]byte(`{"offset":-1}`))
	f.Add([]byte(`nul`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := parseState(data)
		if err == nil && (st.Offset < 0 || st.JournalOffset < 0) {
			t.Fatal("negative offset accepted")
		}
	})
}
