package parser

import "testing"

func TestLex(t *testing.T) {
	toks, err := Lex(`pg_catalog."VarChar" /*+ hint */ (10) [] -- done`)
	if err != nil {
		t.Fatal(err)
	}
	want := []Token{
		{TokenIdent, "pg_catalog", 0, 10}, {TokenPunct, ".", 10, 11}, {TokenQuotedIdent, "VarChar", 11, 20},
		{TokenPunct, "(", 33, 34}, {TokenNumber, "10", 34, 36}, {TokenPunct, ")", 36, 37},
		{TokenPunct, "[", 38, 39}, {TokenPunct, "]", 39, 40},
	}
	if len(toks) != len(want) {
		t.Fatalf("got %v, want %v", toks, want)
	}
	for i := range want {
		if toks[i] != want[i] {
			t.Errorf("token %d: got %+v, want %+v", i, toks[i], want[i])
		}
	}
	if _, err := Lex(`"a`); err == nil {
		t.Error(`Lex("\"a") succeeded, want the scanner's error`)
	}
}
