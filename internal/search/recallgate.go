package search

import (
	"github.com/cerebro-mem/cerebro/internal/text/textan"
	"math"
	"sync"
)

// Auto-recall injects snippets into a prompt nobody asked to search, so
// its gate must say whether a snippet holds what the prompt is about, not
// how well it ranks: a search score counts every word of the query, and a
// natural prompt ("Remind me how long Axolotl refunds take") is mostly
// words no note shares. The gate is the snippet's coverage of the
// prompt's informative weight instead:
//
//	coverage = Σ inform(s) over the prompt's content stems the snippet holds / max(Σ inform(s) over all its stems, 1)
//	inform(s) = min(idf(s) / idf(df=1), 1), × fillerWeight for a filler word
//
// idf counts chunks in all the memory searched, so a word in many notes
// carries little and a word in one note or none carries 1 (a word the
// memory lacks counts as much as the rarest one it holds, no more).
// Filler words — how people ask (remind, tell, long, take, сколько,
// напомни), stop words, and the everyday words of coding sessions (run,
// tests, fix, file) — say little about which note is meant, whatever
// their counts in the memory: they dilute the share a little and never
// make it, so "how do I run the tests" recalls nothing even when a note
// holds every word. The floor of 1 (one content word) keeps a prompt
// whose only content words are common in the memory from passing on
// them alone.

// fillerWeight is a filler word's share of a content word's weight.
const fillerWeight = 0.15

// gateWeight is a prompt stem's inform(s).
type gateWeight struct {
	w      float64
	filler bool
}

// gateWeights is inform(s) for each stem, found in df[s] of the n chunks
// of the memory searched.
func gateWeights(stems []string, df map[string]float64, n float64) map[string]gateWeight {
	top := idfOf(1, n)
	g := make(map[string]gateWeight, len(stems))
	for _, s := range stems {
		w := 1.0
		if top > 0 {
			w = math.Min(idfOf(df[s], n)/top, 1)
		}
		filler := fillerStems()[s] || textan.IsStopWord(s)
		if filler {
			w *= fillerWeight
		}
		g[s] = gateWeight{w, filler}
	}
	return g
}

// coverage is the share of the prompt's informative weight that the
// snippet holds in content words, over a floor of one content word.
func coverage(stems []string, g map[string]gateWeight, have map[string]bool) float64 {
	var total, got float64
	for _, s := range stems { // in query order: the same sum every time
		total += g[s].w
		if have[s] && !g[s].filler {
			got += g[s].w
		}
	}
	return got / math.Max(total, 1)
}

// fillerStems are the stems of [fillerWords], stemmed on first use: every
// hook process links this package and few of them recall.
var fillerStems = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range fillerWords {
		for _, s := range textan.Stems(w) {
			m[s] = true
		}
	}
	return m
})

// fillerWords are words of asking and of everyday coding sessions, in
// English and Russian, that are not Snowball stop words (those count as
// fillers too). Each is stemmed, so one form covers its inflections.
var fillerWords = []string{
	// asking, remembering, telling
	"remind", "recall", "remember", "forgot", "forget", "tell", "say", "said", "show", "explain",
	"describe", "know", "knew", "think", "thought", "mean", "meant", "want", "need", "like",
	"please", "thanks", "thank", "help", "could", "would", "might", "must", "shall", "let",
	"ask", "asked", "question", "answer", "wonder", "idea", "mention", "mentioned", "discuss",
	"talk", "talked", "decide", "decided", "agree", "agreed", "note", "notes", "memory",
	"hey", "hi", "hello", "ok", "okay", "yes", "yeah", "sure", "right", "wrong", "again",
	"also", "ever", "still", "yet", "already", "maybe", "probably", "actually", "really",
	"quite", "much", "many", "long", "often", "usually", "always", "never", "whether",
	"time", "times", "way", "thing", "something", "anything", "everything", "stuff", "kind",
	"sort", "lot", "bit", "part", "good", "bad", "best", "better", "new", "old", "next",
	"different", "exactly", "happen", "happened", "else", "anyone", "someone", "us",
	"around", "anymore", "somewhere", "somehow",
	// doing
	"get", "got", "make", "made", "take", "took", "taken", "give", "gave", "go", "going",
	"went", "gone", "come", "came", "see", "saw", "seen", "look", "find", "found", "use",
	"used", "try", "tried", "work", "works", "worked", "keep", "kept", "put", "set", "check",
	"start", "stop", "done", "doing", "last", "take", "takes", "need", "needs",
	// everyday words of coding sessions
	"run", "ran", "running", "test", "tests", "testing", "build", "fix", "fixed", "bug",
	"error", "code", "file", "files", "change", "changes", "changed", "update", "add",
	"added", "remove", "delete", "write", "wrote", "read", "create", "project", "task",
	"issue", "problem", "step", "command", "function", "line", "version", "fail", "failed",
	"failing", "pass", "passing", "broke", "broken",
	// Russian: asking, remembering, telling
	"напомни", "напомнить", "напоминать", "помнишь", "помню", "вспомни", "скажи", "сказать",
	"сказал", "расскажи", "рассказать", "объясни", "объяснить", "покажи", "показать",
	"знаешь", "знать", "знаю", "думаю", "думаешь", "хочу", "хотел", "нужно", "нужен",
	"нужна", "пожалуйста", "спасибо", "помоги", "помочь", "можешь", "мог", "могу",
	"вопрос", "ответ", "обсуждали", "говорили", "решили", "договорились", "заметка",
	"память", "привет", "ок", "да", "правильно", "снова", "ещё", "вообще", "просто",
	"очень", "обычно", "часто", "сколько", "долго", "какие", "какое", "каких", "каким",
	"который", "которые", "это", "эта", "такое", "давай", "время", "вещь", "штука",
	"новый", "старый", "последний", "первый", "следующий", "хороший", "лучший",
	// Russian: doing
	"идут", "идет", "идти", "занимает", "занимают", "занять", "делать", "сделать", "делаю",
	"работает", "работать", "использовать", "найти", "посмотри", "посмотреть", "проверь",
	"проверить", "взять", "брать", "получить", "начать", "нужно",
	// Russian: everyday words of coding sessions
	"запуск", "запусти", "запустить", "тест", "тесты", "тестов", "сборка", "собрать",
	"исправить", "починить", "ошибка", "файл", "код", "проект", "задача", "изменить",
	"изменения", "обновить", "добавить", "удалить", "написать", "команда", "функция",
	"строка", "версия", "шаг", "проблема", "падает", "упал", "упали", "сломалось", "сломал",
}
