package parser

import (
	"testing"

	"github.com/zproxy/zproxy/internal/sqltok"
)

func TestLex(t *testing.T) {
	toks, err := Lex(`pg_catalog."VarChar" /*+ hint */ (10) [] -- done`)
	if err != nil {
		t.Fatal(err)
	}
	want := []sqltok.Token{
		{Kind: sqltok.Ident, Value: "pg_catalog", Start: 0, End: 10}, {Kind: sqltok.Punct, Value: ".", Start: 10, End: 11}, {Kind: sqltok.QuotedIdent, Value: "VarChar", Start: 11, End: 20},
		{Kind: sqltok.Punct, Value: "(", Start: 33, End: 34}, {Kind: sqltok.Number, Value: "10", Start: 34, End: 36}, {Kind: sqltok.Punct, Value: ")", Start: 36, End: 37},
		{Kind: sqltok.Punct, Value: "[", Start: 38, End: 39}, {Kind: sqltok.Punct, Value: "]", Start: 39, End: 40},
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
