package textan

import (
	"sync"

	"github.com/kljensen/snowball/russian"
)

// irregular maps the past tense and participle of English irregular verbs
// (and irregular plurals) to their base form before stemming: notes are
// written in the past ("we ran the migration", "she took the kids"),
// questions in the present ("when did we run…", "did she take…"), and
// Snowball's suffix rules cannot see that "ran" is "run". Forms as often
// another word are left out: found, left, saw, rose, bound, ground, wound,
// lit, fell, spoke, bore, lay, bit, shot.
var irregular = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, e := range [][]string{
		{"arise", "arose", "arisen"}, {"awake", "awoke", "awoken"}, {"bear", "borne"},
		{"beat", "beat", "beaten"}, {"become", "became", "become"}, {"begin", "began", "begun"},
		{"bend", "bent"}, {"bet", "bet"}, {"bite", "bitten"},
		{"bleed", "bled"}, {"blow", "blew", "blown"}, {"break", "broke", "broken"},
		{"breed", "bred"}, {"bring", "brought"}, {"build", "built"}, {"burn", "burnt"},
		{"buy", "bought"}, {"catch", "caught"}, {"choose", "chose", "chosen"}, {"cling", "clung"},
		{"come", "came"}, {"creep", "crept"}, {"deal", "dealt"}, {"dig", "dug"},
		{"draw", "drew", "drawn"}, {"dream", "dreamt"}, {"drink", "drank", "drunk"},
		{"drive", "drove", "driven"}, {"eat", "ate", "eaten"}, {"fall", "fallen"},
		{"feed", "fed"}, {"feel", "felt"}, {"fight", "fought"}, {"flee", "fled"},
		{"fly", "flew", "flown"}, {"forbid", "forbade", "forbidden"}, {"forget", "forgot", "forgotten"},
		{"forgive", "forgave", "forgiven"}, {"freeze", "froze", "frozen"}, {"get", "got", "gotten"},
		{"give", "gave", "given"}, {"go", "went", "gone"}, {"grow", "grew", "grown"},
		{"hang", "hung"}, {"hear", "heard"}, {"hide", "hid", "hidden"}, {"hold", "held"},
		{"keep", "kept"}, {"kneel", "knelt"}, {"know", "knew", "known"}, {"lay", "laid"},
		{"lead", "led"}, {"lean", "leant"}, {"leap", "leapt"}, {"learn", "learnt"},
		{"lend", "lent"}, {"lie", "lain"}, {"lose", "lost"},
		{"make", "made"}, {"mean", "meant"}, {"meet", "met"}, {"pay", "paid"}, {"prove", "proven"},
		{"ride", "rode", "ridden"}, {"ring", "rang", "rung"}, {"rise", "risen"},
		{"run", "ran"}, {"say", "said"}, {"see", "seen"}, {"seek", "sought"}, {"sell", "sold"},
		{"send", "sent"}, {"shake", "shook", "shaken"}, {"shine", "shone"}, {"shoot", "shot"},
		{"show", "shown"}, {"shrink", "shrank", "shrunk"}, {"sing", "sang", "sung"},
		{"sink", "sank", "sunk"}, {"sit", "sat"}, {"sleep", "slept"}, {"slide", "slid"},
		{"speak", "spoken"}, {"speed", "sped"}, {"spend", "spent"}, {"spin", "spun"},
		{"spit", "spat"}, {"spread", "spread"}, {"spring", "sprang", "sprung"}, {"stand", "stood"},
		{"steal", "stole", "stolen"}, {"stick", "stuck"}, {"sting", "stung"}, {"stink", "stank"},
		{"strike", "struck"}, {"strive", "strove", "striven"}, {"swear", "swore", "sworn"},
		{"sweep", "swept"}, {"swim", "swam", "swum"}, {"swing", "swung"}, {"take", "took", "taken"},
		{"teach", "taught"}, {"tear", "tore", "torn"}, {"tell", "told"}, {"think", "thought"},
		{"throw", "threw", "thrown"}, {"understand", "understood"}, {"wake", "woke", "woken"},
		{"wear", "wore", "worn"}, {"weave", "wove", "woven"}, {"weep", "wept"}, {"win", "won"},
		{"write", "wrote", "written"}, {"undertake", "undertook", "undertaken"},
		{"overcome", "overcame"}, {"withdraw", "withdrew", "withdrawn"}, {"mistake", "mistook", "mistaken"},
		{"child", "children"}, {"person", "people"}, {"man", "men"}, {"woman", "women"},
		{"mouse", "mice"}, {"foot", "feet"}, {"tooth", "teeth"}, {"goose", "geese"},
	} {
		for _, f := range e[1:] {
			if f != e[0] {
				m[f] = e[0]
			}
		}
	}
	return m
})

// suppletive maps the Snowball stems of Russian plurals built on another
// root (друзья, люди, дети), or whose stem Snowball cuts apart from the
// singular's (ребенка, дочери, сыновья); мать is left out, its «матер» being
// материя's stem too, to the singular's stem: «кто мои
// друзья» must find a note about a друг. A small fixed table of the
// words people write about people; each form is listed whole and
// stemmed once.
var suppletive = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, e := range [][]string{
		{"друг", "друзья", "друзей", "друзьям", "друзьями", "друзьях"},
		{"человек", "люди", "людей", "людям", "людьми", "людях"},
		{"ребенок", "ребенка", "ребенку", "ребенком", "ребенке", "дети", "детей", "детям", "детьми", "детях"},
		{"сын", "сыновья", "сыновей", "сыновьям", "сыновьями", "сыновьях"},
		{"дочь", "дочери", "дочерей", "дочерям", "дочерьми", "дочерях", "дочерью"},
		{"хозяин", "хозяева", "хозяев", "хозяевам", "хозяевами", "хозяевах"},
	} {
		base := russian.Stem(e[0], true)
		for _, f := range e[1:] {
			if st := russian.Stem(f, true); st != base {
				m[st] = base
			}
		}
	}
	return m
})
