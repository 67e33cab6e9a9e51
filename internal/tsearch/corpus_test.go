package tsearch

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgoracle"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestCorpusMatchesPostgres compares, line by line of testdata/corpus.txt,
// ts_parse's tokens and to_tsvector under both configurations with
// PostgreSQL 15's, and to_tsquery, plainto_tsquery, phraseto_tsquery and
// websearch_to_tsquery of each line's words. It needs TSEARCH_POSTGRES (a
// connection string); without it the test is skipped.
func TestCorpusMatchesPostgres(t *testing.T) {
	dsn := os.Getenv("TSEARCH_POSTGRES")
	if dsn == "" {
		t.Skip("TSEARCH_POSTGRES is not set")
	}
	ctx := context.Background()
	conn, _, err := pgoracle.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	f, err := os.Open("testdata/corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		rows, err := conn.Query(ctx, "SELECT tokid, token FROM ts_parse('default', $1)", line)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for rows.Next() {
			var id int
			var tok string
			if err := rows.Scan(&id, &tok); err != nil {
				t.Fatal(err)
			}
			want = append(want, TokenType(id).Alias()+":"+tok)
		}
		rows.Close()
		var got []string
		for _, tok := range Parse(line) {
			got = append(got, tok.Type.Alias()+":"+tok.Text)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("ts_parse(%q):\n got %q\nwant %q", line, got, want)
		}
		for _, cfg := range []*Config{SimpleConfig, EnglishConfig} {
			var pg string
			if err := conn.QueryRow(ctx, "SELECT to_tsvector($1::regconfig, $2)::text", cfg.Name, line).Scan(&pg); err != nil {
				t.Fatal(err)
			}
			if mine := string(sqltypes.AppendTSVector(nil, cfg.ToTSVector(line))); mine != pg {
				t.Errorf("to_tsvector(%s, %q):\n got %s\nwant %s", cfg.Name, line, mine, pg)
			}
			for _, fn := range []string{"plainto_tsquery", "phraseto_tsquery", "websearch_to_tsquery"} {
				if err := conn.QueryRow(ctx, "SELECT "+fn+"($1::regconfig, $2)::text", cfg.Name, line).Scan(&pg); err != nil {
					t.Fatal(err)
				}
				q, err := cfg.ToTSQuery(line, queryModes[fn])
				if err != nil {
					t.Errorf("%s(%s, %q): %v", fn, cfg.Name, line, err)
					continue
				}
				if mine := sqltypes.TSQueryString(q); mine != pg {
					t.Errorf("%s(%s, %q):\n got %s\nwant %s", fn, cfg.Name, line, mine, pg)
				}
			}
		}
	}
}
