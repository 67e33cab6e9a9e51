package guc

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// updateGolden rewrites testdata/set_show.golden from the PostgreSQL 15
// server GUC_POSTGRES names (a superuser's connection string):
//
//	GUC_POSTGRES='host=... user=postgres' go test ./internal/guc -run TestParseMatchesPostgres -update
var updateGolden = flag.Bool("update", false, "rewrite testdata/set_show.golden from the PostgreSQL 15 of GUC_POSTGRES")

const goldenPath = "testdata/set_show.golden"

// hooked are parameters whose check hooks in PostgreSQL depend on the
// session's state (a transaction already under way, the process's stack
// limit), so their answers are not a function of the value alone.
var hooked = map[string]bool{
	"transaction_isolation": true, "transaction_read_only": true, "transaction_deferrable": true,
	"max_stack_depth": true,
	// These show the connection's socket options, not the setting.
	"tcp_keepalives_count": true, "tcp_keepalives_idle": true, "tcp_keepalives_interval": true, "tcp_user_timeout": true,
	// Their check hooks read the server machine's locales and files.
	"lc_messages": true, "timezone_abbreviations": true,
}

// probes are the values tried on p: its boot value, the edges of its
// range, every spelling PostgreSQL's readers treat specially, and junk.
func probes(p *Param) []string {
	vals := []string{p.Boot, "", "banana"}
	switch p.Type {
	case Bool:
		vals = append(vals, "on", "off", "ON", "true", "false", "t", "f", "tr", "yes", "no", "y", "n", "1", "0", "o", "of", "on ", " on", "2", "onn")
	case Integer, Real:
		vals = append(vals, p.Min, p.Max, "1", "0", "-1", "1.5", "0.5", "0x10", "010", "09", "1e3", "1E2", "-0", " 42", "42 ", "2147483648", "-2147483649",
			"1e10", "1e400", "nan", "inf", "-inf", "1x", "5 5")
		if min, err := strconv.ParseFloat(p.Min, 64); err == nil {
			vals = append(vals, formatG(min-1))
		}
		if max, err := strconv.ParseFloat(p.Max, 64); err == nil && max < 1e9 {
			vals = append(vals, formatG(max+1))
		}
		if p.Unit != "" {
			vals = append(vals, "1kB", "1 MB", "1MB ", "1mb", "64kB", "1GB", "1.5GB", "100B", "1TB", "8kB", "1s", "1min", "1.5s", "100us", "2h", "1d",
				"1 ms", "1500ms", "0.5ms", "1xx", "1 kB x", "3000s", "120min")
		}
	case Enum:
		vals = append(vals, p.EnumVals...)
		for _, v := range p.EnumVals {
			vals = append(vals, strings.ToUpper(v))
		}
		vals = append(vals, "on", "off", "true", "false", "yes", "no", "1", "0", "debug", "info", " "+p.EnumVals[0])
	}
	seen := map[string]bool{}
	var out []string
	for _, v := range vals {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// answer is one line of the golden file: what SET name = value gives.
func answer(name, value, result string) string {
	return strconv.Quote(name) + " " + strconv.Quote(value) + " " + result
}

// ours is Parse's answer in the golden file's form.
func ours(p *Param, value string) string {
	v, err := p.Parse(value)
	if err != nil {
		var e *pgerr.Error
		if !errors.As(err, &e) {
			return "go error " + err.Error()
		}
		return fmt.Sprintf("error %s %q hint=%q", e.Code.String(), e.Message, e.Hint)
	}
	return fmt.Sprintf("ok setting=%q show=%q", v.Setting, v.Show)
}

// TestParseMatchesPostgres checks Parse against PostgreSQL 15's answers to
// SET for every parameter and every probe: the value pg_settings and SHOW
// print, or the SQLSTATE, message and hint of the refusal.
func TestParseMatchesPostgres(t *testing.T) {
	if *updateGolden {
		writeGolden(t)
	}
	f, err := os.Open(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	lines, checked := 0, map[string]bool{}
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, rest, err := unquoteField(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		value, want, err := unquoteField(rest)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		p, ok := Lookup(name)
		if !ok {
			t.Errorf("PostgreSQL has %s; the table does not", name)
			continue
		}
		checked[p.Name] = true
		lines++
		if got := ours(p, value); got != want {
			t.Errorf("SET %s = %q:\n got %s\nwant %s", name, value, got, want)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, p := range All() {
		if !checked[p.Name] && !hooked[p.Name] && p.SessionSettable() {
			t.Errorf("%s has no recorded answers: regenerate %s", p.Name, goldenPath)
		}
	}
	t.Logf("%d answers for %d parameters agree with PostgreSQL 15", lines, len(checked))
}

func unquoteField(s string) (field, rest string, err error) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", "", err
	}
	field, err = strconv.Unquote(q)
	return field, strings.TrimPrefix(s[len(q):], " "), err
}

func writeGolden(t *testing.T) {
	dsn := os.Getenv("GUC_POSTGRES")
	if dsn == "" {
		t.Fatal("-update needs GUC_POSTGRES, a PostgreSQL 15 superuser's connection string")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// The built-in extensions' parameters exist once their library is
	// loaded (before that, SET makes a placeholder of any value).
	for _, lib := range []string{"pg_trgm", "auto_explain"} {
		if _, err := conn.Exec(ctx, "LOAD '"+lib+"'"); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	b.WriteString("# PostgreSQL 15's answers to SET name = value: the setting pg_settings shows and what SHOW prints,\n")
	b.WriteString("# or the error. Written by: GUC_POSTGRES=... go test ./internal/guc -run TestParseMatchesPostgres -update\n")
	for _, p := range All() {
		if hooked[p.Name] || !p.SessionSettable() {
			continue // the server's parameters: SET refuses them by context, whatever the value
		}
		for _, v := range probes(p) {
			if p.Type == String && v != p.Boot {
				continue // check hooks, not parsing, decide these
			}
			tx, err := conn.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var setting, show string
			result := ""
			_, err = tx.Exec(ctx, "SELECT set_config($1, $2, true)", p.Name, v)
			if err == nil {
				err = tx.QueryRow(ctx, "SELECT setting, current_setting($1) FROM pg_settings WHERE name = $1", p.Name).Scan(&setting, &show)
				result = fmt.Sprintf("ok setting=%q show=%q", setting, show)
			}
			if err != nil {
				var pe *pgconn.PgError
				if !errors.As(err, &pe) {
					t.Fatal(err)
				}
				result = fmt.Sprintf("error %s %q hint=%q", pe.Code, pe.Message, pe.Hint)
			}
			tx.Rollback(ctx)
			b.WriteString(answer(p.Name, v, result) + "\n")
		}
	}
	if err := os.WriteFile(goldenPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestParamsGenUpToDate regenerates params_gen.go from the PostgreSQL 15
// of GUC_POSTGRES, when set, and compares it with the checked-in file.
func TestParamsGenUpToDate(t *testing.T) {
	dsn := os.Getenv("GUC_POSTGRES")
	if dsn == "" {
		t.Skip("GUC_POSTGRES is not set")
	}
	out, err := exec.Command("go", "run", "./gen", dsn).Output()
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("params_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(have) {
		t.Error("params_gen.go is out of date: go run ./internal/guc/gen \"$GUC_POSTGRES\" > internal/guc/params_gen.go")
	}
}

// FuzzParse checks that Parse never panics and that what it prints reads
// back as the same value, as PostgreSQL's SHOW output does.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1", "1.5GB", "0x10", " 42 ", "on", "debug", "1e400", "-inf", "0x1.8p3"} {
		f.Add(uint8(0), s)
	}
	params := All()
	f.Fuzz(func(t *testing.T, which uint8, value string) {
		p := params[int(which)%len(params)]
		v, err := p.Parse(value)
		if err != nil {
			return
		}
		again, err := p.Parse(v.Show)
		if err != nil {
			t.Fatalf("%s: %q shows as %q, which does not read back: %v", p.Name, value, v.Show, err)
		}
		if p.Type != Real && again != v {
			t.Fatalf("%s: %q → %+v → %+v", p.Name, value, v, again)
		}
	})
}
