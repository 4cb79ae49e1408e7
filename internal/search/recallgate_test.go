package search

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// plantedMemory is a small project memory, English and Russian, in which
// everyday words of coding sessions (tests, run, fix, file) recur as they
// do in real daily notes.
func plantedMemory(t *testing.T) (state string, roots []Root) {
	t.Helper()
	proj := t.TempDir()
	state = t.TempDir()
	short := filepath.Join(proj, ".claude", "memory_short", "daily")
	long := filepath.Join(proj, ".claude", "memory_long")
	write(t, filepath.Join(short, "2026-11-20.md"), "# 2026-11-20\n\n### Done\n- Settled on Axolotl Pay as the payment gateway.\n- Axolotl Pay refunds settle in 5 business days.\n- Ran the tests after the billing refactor; all green.\n")
	write(t, filepath.Join(short, "2026-11-24.md"), "# 2026-11-24\n\n### Done\n- Fixed the flaky test in the session store.\n- The nightly run of the export job failed on a timeout; raised it to 10 minutes.\n### Files and commands\n- `internal/export/job.go`, `go test ./...`\n")
	write(t, filepath.Join(short, "2026-11-26.md"), "# 2026-11-26\n\n### Сделано\n- Возвраты через Axolotl Pay проходят за 5 рабочих дней.\n- Бэкапы базы делаются каждую ночь в 3:00 на сервер Хранилище-2.\n- Прогнали тесты после правки файла настроек.\n")
	write(t, filepath.Join(short, "2026-11-28.md"), "# 2026-11-28\n\n### Done\n- Fixed the test run on CI: the file watcher needed a longer timeout.\n- Updated the changelog file.\n")
	write(t, filepath.Join(long, "Kafka.md"), "# Kafka\nRetention on the events topic is seven days. The consumer group is billing-events.\n")
	write(t, filepath.Join(long, "Deploy.md"), "# Deploy\nProduction deploys go through the staging cluster first; roll back with `make rollback`.\n")
	write(t, filepath.Join(long, "Стиль кода.md"), "# Стиль кода\nОшибки оборачиваем через %w, сообщения об ошибках пишем с маленькой буквы.\n")
	roots = Roots(proj, "", "", ScopeProject)
	for _, r := range roots {
		indexed(t, state, r, Params{}).Close()
	}
	return state, roots
}

func TestAutoRecallGate(t *testing.T) {
	state, roots := plantedMemory(t)
	o := defaults()
	o.Limit = 3
	for _, c := range []struct {
		prompt string
		want   string // a citation's file that must be recalled; "" for nothing at all
	}{
		{"When do Axolotl Pay refunds settle?", "2026-11-20.md"},
		{"Remind me how long Axolotl refunds take", "2026-11-20.md"},
		{"can you remind me what the refund window for axolotl was?", "2026-11-20.md"},
		{"what's the retention on the kafka events topic?", "Kafka.md"},
		{"how long do we keep kafka events around?", "Kafka.md"},
		{"remind me how production deploys go", "Deploy.md"},
		{"Напомни, сколько идут возвраты Axolotl", "2026-11-26.md"},
		{"Когда делаются бэкапы базы?", "2026-11-26.md"},
		{"как мы оборачиваем ошибки?", "Стиль кода.md"},

		{"how do I run the tests", ""},
		{"fix the failing test and run it again", ""},
		{"Как запустить тесты?", ""},
		{"Спасибо, всё понятно", ""},
		{"what's the weather like in Paris?", ""},
		{"what is the kafka partition count?", ""},
		{"Add Stripe refunds to the checkout page", ""},
		{"Подключи платёжный шлюз Stripe для возвратов на странице оплаты", ""},
	} {
		got, err := AutoRecall(context.Background(), state, roots, c.prompt, o, 0.5)
		if err != nil {
			t.Fatalf("%q: %v", c.prompt, err)
		}
		switch {
		case c.want == "" && got != "":
			t.Errorf("%q recalled:\n%s", c.prompt, got)
		case c.want != "" && !strings.Contains(got, c.want+"#L"):
			t.Errorf("%q did not recall %s; got:\n%s", c.prompt, c.want, got)
		}
	}
}

func TestAutoRecallThreshold(t *testing.T) {
	state, roots := plantedMemory(t)
	o := defaults()
	o.Limit = 3
	recalls := func(prompt string, min float64) bool {
		got, err := AutoRecall(context.Background(), state, roots, prompt, o, min)
		if err != nil {
			t.Fatal(err)
		}
		return got != ""
	}
	// "Remind me how long Axolotl refunds take": the snippet holds both
	// content words, the prompt's fillers keep it under 0.9
	if p := "Remind me how long Axolotl refunds take"; !recalls(p, 0.75) || recalls(p, 0.9) {
		t.Errorf("%q: recalled at 0.75 %v, at 0.9 %v; want true, false", p, recalls(p, 0.75), recalls(p, 0.9))
	}
	// one content word of three: a third of the prompt
	if p := "what is the kafka partition count?"; !recalls(p, 0.3) || recalls(p, 0.4) {
		t.Errorf("%q: recalled at 0.3 %v, at 0.4 %v; want true, false", p, recalls(p, 0.3), recalls(p, 0.4))
	}
	// a snippet holding no content word is never recalled, whatever the threshold
	if p := "how do I run the tests"; recalls(p, 0) {
		t.Errorf("%q recalled at threshold 0", p)
	}
}

func TestCoverage(t *testing.T) {
	stems := []string{"remind", "axolotl", "refund"}
	g := gateWeights(stems, map[string]float64{"remind": 0, "axolotl": 1, "refund": 50}, 100)
	if g["axolotl"].w != 1 || g["remind"].w != fillerWeight || !g["remind"].filler {
		t.Fatalf("weights %v: a word in one chunk weighs 1, a filler the memory lacks %v", g, fillerWeight)
	}
	if w := g["refund"].w; w <= 0.05 || w >= 0.3 {
		t.Errorf("a word in half the chunks weighs %v", w)
	}
	total := 1 + fillerWeight + g["refund"].w
	for _, c := range []struct {
		have []string
		want float64
	}{
		{[]string{"axolotl", "refund"}, (1 + g["refund"].w) / total},
		{[]string{"remind", "axolotl"}, 1 / total}, // a filler held adds nothing
		{[]string{"remind"}, 0},
		{[]string{"refund"}, g["refund"].w / total},
	} {
		have := map[string]bool{}
		for _, s := range c.have {
			have[s] = true
		}
		if got := coverage(stems, g, have); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("coverage of %v = %v, want %v", c.have, got, c.want)
		}
	}
	// fillers and common words alone stay under the floor of one content word
	if got := coverage([]string{"refund"}, g, map[string]bool{"refund": true}); got != g["refund"].w {
		t.Errorf("a common word alone covers %v, want its weight %v", got, g["refund"].w)
	}
}
