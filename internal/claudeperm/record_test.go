package claudeperm

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The record keeps what install added per settings file; a record that
// holds no rule is dropped, and with none left the file goes.
func TestRecordsRoundTripAndGoWhenEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "claude-permissions.json")
	if recs, err := ReadRecords(path); err != nil || recs != nil {
		t.Fatalf("missing file: %v, %v", recs, err)
	}
	want := []Record{{Settings: "/a/settings.json", Added: []string{"x"}}}
	if err := WriteRecords(path, append(want, Record{Settings: "/b/settings.json"})); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadRecords(path); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("read back %+v, %v; want %+v", got, err, want)
	}
	if err := WriteRecords(path, []Record{{Settings: "/a/settings.json"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("an empty record was left: %v", err)
	}
	os.WriteFile(path, []byte("{not json"), 0o600)
	if _, err := ReadRecords(path); err == nil {
		t.Fatal("a broken record was read")
	}
}
