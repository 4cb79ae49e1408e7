package textan

import (
	"reflect"
	"testing"
)

func TestWordsFoldCaseYoAndStress(t *testing.T) {
	got := Words("Ёлка, ЁЖИКИ и мо́ре; Deploy-v2 a828e60")
	want := []string{"елка", "ежики", "и", "море", "deploy", "v2", "a828e60"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
}

func TestStemsRussianEnglishIdentifiers(t *testing.T) {
	for in, want := range map[string]string{
		"Running tests; ёлка Ёжики":           "run test елк ежик",
		"проектов синхронизациями Проекта":    "проект синхронизац проект",
		"v1.2 sha256 a828e60 kafkaКафка":      "v1 2 sha256 a828e60 kafkaкафка",
		"Ретроспективы и ретроспектива; runs": "ретроспектив и ретроспектив run",
	} {
		if got := StemmedText(in); got != want {
			t.Errorf("StemmedText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTermsDropStopWordsAndExtras(t *testing.T) {
	got := Terms("What did we decide about the Kafka партиции в проекте?", map[string]bool{"decide": true})
	want := []string{"kafka", "партиц", "проект"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Terms = %q, want %q", got, want)
	}
}

func TestQueryTermsDistinctAndNeverEmpty(t *testing.T) {
	if got, want := QueryTerms("deploy the deploys, Деплой"), []string{"deploy", "депл"}; !reflect.DeepEqual(got, want) {
		t.Errorf("QueryTerms = %q, want %q", got, want)
	}
	if got, want := QueryTerms("the who"), []string{"the", "who"}; !reflect.DeepEqual(got, want) {
		t.Errorf("QueryTerms of stop words only = %q, want %q", got, want)
	}
}
