package builtins

import (
	"strconv"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The expected values are PostgreSQL 15's (pg_trgm 1.6, lc_ctype C.UTF-8).

func TestShowTrgm(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Hello, World!", `  h,  w, he, wo,ell,hel,ld ,llo,lo ,orl,rld,wor`},
		{"a", `  a, a `},
		{"", ``},
		{"  ", ``},
		{"straße", `0x9a07c3,0xde3801,  s, st,str,tra,0x76a40e`},
		{"İI", `  i, ii,ii `},
		{"дом", `0xff08eb,0x066ec6,0x61da89,0x753921`},
		{"x½ ①", `  x, x `},
		{"٣٤٥", `0x899cd4,0x0b0f72,0x1f7d7b,0x598674`},
		{"ǅ ẞ", `0xc96a06,0x1c2a25,0x2e0f49,0x7f0eee`},
	} {
		if got := strings.Join(showTrgm(c.in), ","); got != c.want {
			t.Errorf("show_trgm(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestTrgmSimilarities(t *testing.T) {
	for _, c := range []struct{ a, b, sml, word, strict string }{
		{"word", "two words", "0.36363637", "0.8", "0.5714286"},
		{"wirds", "two words", "0.23076923", "0.33333334", "0.33333334"},
		{"cat", "concatenate", "0.15384616", "0.25", "0.15384616"},
		{"dom", "домашний дом", "0", "0", "0"},
		{"quick", "the quick brown fox", "0.3", "1", "1"},
		{"brwn fox", "the quick brown fox", "0.3181818", "0.5833333", "0.5833333"},
		{"", "", "0", "0", "0"},
		{"abc", "", "0", "0", "0"},
		{"Straße", "die STRASSE ist lang", "0.16666667", "0.5714286", "0.36363637"},
		{"abc", "abc", "1", "1", "1"},
	} {
		f := func(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }
		if got := f(trgmSimilarity(c.a, c.b)); got != c.sml {
			t.Errorf("similarity(%q, %q) = %s, want %s", c.a, c.b, got, c.sml)
		}
		if got := f(trgmWordSimilarity(c.a, c.b, false)); got != c.word {
			t.Errorf("word_similarity(%q, %q) = %s, want %s", c.a, c.b, got, c.word)
		}
		if got := f(trgmWordSimilarity(c.a, c.b, true)); got != c.strict {
			t.Errorf("strict_word_similarity(%q, %q) = %s, want %s", c.a, c.b, got, c.strict)
		}
	}
}

// TestTrgmThreshold checks that the operators read the session's
// thresholds: 'word' % 'two words' (0.36) holds at 0.3, not at 0.4.
func TestTrgmThreshold(t *testing.T) {
	op := operators["%"]
	var sim *Overload
	for i := range op {
		if op[i].Params[0].Type.ID == sqltypes.Text {
			sim = &op[i]
		}
	}
	if sim == nil {
		t.Fatal("no text % text operator")
	}
	for _, c := range []struct {
		setting string
		want    bool
	}{{"", true}, {"0.3", true}, {"0.36363637", true}, {"0.4", false}} {
		ctx := &Context{}
		if c.setting != "" {
			ctx.ExactSettings = func(n string) (string, bool) { return c.setting, n == TrgmSimilarityThreshold }
		}
		v, err := sim.Binary(ctx, sqltypes.NewText("word"), sqltypes.NewText("two words"))
		if err != nil {
			t.Fatal(err)
		}
		if v.Bool() != c.want {
			t.Errorf("threshold %q: %v, want %v", c.setting, v.Bool(), c.want)
		}
	}
}
