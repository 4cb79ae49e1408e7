package search

import (
	"context"
	"encoding/base64"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pngBase64 is n bytes of noise after a PNG signature, as base64: what
// an image pasted into a note becomes.
func pngBase64(n int) string {
	b := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, n)...)
	rand.New(rand.NewSource(1)).Read(b[8:])
	return base64.StdEncoding.EncodeToString(b)
}

// An embedded image, a pasted base64 attachment, a minified script and
// a binary file saved as .md are not indexed: their bytes neither match
// a query nor swell the index, and the note's own words still find it.
func TestEmbeddedDataIsNotIndexed(t *testing.T) {
	dir := t.TempDir()
	img := pngBase64(60_000)
	js := strings.Repeat(`function(a,b){return a.map(function(c){return c+b*2;});};var x={"k":[1,2,3]};`, 40)
	notes := map[string]string{
		"Garden.md": "# Garden\n\nThe greenhouse photo:\n\n![photo](data:image/png;base64," + img + ")\n\nTomatoes go in after the frost.\n",
		"Clip.md":   "# Clipped page\n\n```\n" + pngBase64(3_000) + "\n```\n\n<script>" + js + "</script>\n\nThe clipped article is about composting.\n",
		"Words.md":  "# Words\n\n" + strings.Repeat("Ordinary prose about gardens and compost, with spaces between words. ", 40) + "\n",
	}
	var text int
	for name, body := range notes {
		text += len(body)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "attachment.md"), []byte("\x00\x01binary\x00data"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(t.TempDir(), Root{Dir: dir, Kind: KindDir}, Params{ChunkTokens: 400, OverlapTokens: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st, err := ix.Update(context.Background(), now, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Hygiene.Blobs != 3 || st.Hygiene.BinaryFiles != 1 || st.Hygiene.BlobBytes < 80_000 {
		t.Errorf("left out %+v, want the data URI, the base64 block and the script line (≥ 80 KB), and one binary file", st.Hygiene)
	}
	for _, q := range []string{"iVBORw0KGgo", img[100:140], "function return map", "binary data"} {
		r, err := Search(context.Background(), []*Index{ix}, q, defaults())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Results) != 0 {
			t.Errorf("%.20q found %s: %.80q", q, r.Results[0].Citation, r.Results[0].Snippet)
		}
	}
	r, _ := Search(context.Background(), []*Index{ix}, "greenhouse tomatoes", defaults())
	if len(r.Results) == 0 || r.Results[0].Path != filepath.Join(dir, "Garden.md") || strings.Contains(r.Results[0].Snippet, "iVBOR") || !strings.Contains(r.Results[0].Snippet, blobMark) {
		t.Fatalf("the note's words: %+v", r.Results)
	}
	if got := r.Results[0].Citation; got != filepath.Join(dir, "Garden.md")+"#L1-L7" {
		t.Errorf("citation %s: the lines keep their numbers", got)
	}
	var pages, size int64
	ix.db.QueryRow(`PRAGMA page_count`).Scan(&pages)
	ix.db.QueryRow(`PRAGMA page_size`).Scan(&size)
	if pages*size > 3*int64(text)+64<<10 { // an empty index is a few pages of schema
		t.Errorf("index of %d bytes for %d bytes of notes (with the blobs)", pages*size, text)
	}
}

func TestMinifiedNeedsCodeNotJustNoSpaces(t *testing.T) {
	cjk := strings.Repeat("这是一个很长的中文段落没有空格但它是正常的文字内容。", 60)
	if minified(cjk) {
		t.Error("a long line of Chinese prose taken for minified code")
	}
	if !minified(strings.Repeat(`a.b(c,{d:1,e:[2,3]});`, 80)) {
		t.Error("minified script not recognised")
	}
	var h Hygiene
	if got := cleanLine("sha512 "+strings.Repeat("ab12", 32)+" and /usr/local/share/some/long/path/without/capitals/at/all/in/it/anywhere/because/paths/are/like/that/sometimes/really/long/ones/ok", &h); strings.Contains(got, blobMark) {
		t.Errorf("a hash or a path taken for data: %q", got)
	}
}

// The frontmatter is metadata: no snippet shows it, yet its values
// (a description) still find the note.
func TestSnippetsNeverStartInFrontmatter(t *testing.T) {
	dir := t.TempDir()
	body := "---\ntitle: Deploy checklist\ndescription: how we ship the billing service\ntags: [ops, billing]\ncreated: 2026-01-04\n---\n" +
		"Before a deploy, freeze the billing schema.\n\nRun the smoke tests.\n"
	os.WriteFile(filepath.Join(dir, "deploy.md"), []byte(body), 0o644)
	os.WriteFile(filepath.Join(dir, "daily.md"), []byte("---\n{\"type\": \"daily\", \"billing\": \"json frontmatter\"}\n---\nbilling call with Anna\n"), 0o644)
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindDir}, Params{})
	for _, q := range []string{"billing schema", "ship billing service", "billing", "ops"} {
		r, err := Search(context.Background(), []*Index{ix}, q, defaults())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Results) == 0 {
			t.Fatalf("%q: nothing found", q)
		}
		for _, res := range r.Results {
			fmEnd := 6
			if strings.HasSuffix(res.Path, "daily.md") {
				fmEnd = 3
			}
			if res.StartLine <= fmEnd || strings.Contains(res.Snippet, "description:") || strings.Contains(res.Snippet, `"type"`) || strings.HasPrefix(res.Snippet, "\n") {
				t.Errorf("%q: %s shows the frontmatter: %q", q, res.Citation, res.Snippet)
			}
		}
	}
}
