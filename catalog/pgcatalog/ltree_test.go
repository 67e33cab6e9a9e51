package pgcatalog

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// ltreeRows reads a testdata file of rows PostgreSQL 15 printed with
// psql -At -F'|' (# lines are comments).
func ltreeRows(t *testing.T, file string) [][]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "|||"); ok {
			// The operator || itself, before the separator.
			out = append(out, append([]string{"||"}, strings.Split(rest, "|")...))
			continue
		}
		out = append(out, strings.Split(line, "|"))
	}
	return out
}

// TestLtreeMatchesPostgres: every function of PostgreSQL 15's ltree
// extension over types zproxy holds (testdata/ltree_procs.txt; the gist
// support and I/O functions over internal and cstring are left out) is
// registered with PostgreSQL's arguments, result, volatility and
// strictness, and every operator of it (testdata/ltree_operators.txt)
// resolves, for its operand types, to an overload of PostgreSQL's result
// (the comparisons of ltree are the planner's, checked by ltree.slt).
func TestLtreeMatchesPostgres(t *testing.T) {
	registered := map[string]string{}
	for _, f := range builtins.Procs() {
		p := procOf(f)
		args := make([]string, len(p.args))
		for i, a := range p.args {
			args[i] = typeName(a)
		}
		registered[f.Name+"("+strings.Join(args, ", ")+")"] = fmt.Sprintf("%s|%c|%v", typeName(p.ret), p.vol, map[bool]string{true: "t", false: "f"}[p.strict])
	}
	rows := ltreeRows(t, "testdata/ltree_procs.txt")
	if len(rows) < 50 {
		t.Fatalf("only %d functions in testdata/ltree_procs.txt", len(rows))
	}
	for _, r := range rows {
		sig := r[0] + "(" + r[1] + ")"
		got, ok := registered[sig]
		if !ok {
			t.Errorf("ltree's %s is not registered", sig)
			continue
		}
		if want := strings.Join(r[2:], "|"); got != want {
			t.Errorf("%s: %s; PostgreSQL 15's %s", sig, got, want)
		}
	}
	byName := map[string]sqltypes.Type{}
	for _, typ := range []sqltypes.Type{sqltypes.TypeLtree, sqltypes.TypeLquery, sqltypes.TypeLtxtquery, sqltypes.TypeText, sqltypes.TypeBool} {
		byName[typ.String()] = typ
		byName[sqltypes.ArrayOf(typ).String()] = sqltypes.ArrayOf(typ)
	}
	n := 0
	for _, r := range ltreeRows(t, "testdata/ltree_operators.txt") {
		op, l, rt, result := r[0], byName[r[1]], byName[r[2]], r[3]
		switch op {
		case "<", "<=", "=", "<>", ">=", ">":
			continue
		}
		n++
		res, err := builtins.ResolveOperator(op, []sqltypes.Type{l, rt})
		if err != nil {
			t.Errorf("%s %s %s: %v", r[1], op, r[2], err)
			continue
		}
		if res.ArgTypes[0] != l || res.ArgTypes[1] != rt || res.Result.String() != result {
			t.Errorf("%s %s %s resolves to (%s, %s) returning %s; PostgreSQL 15's returns %s", r[1], op, r[2], res.ArgTypes[0], res.ArgTypes[1], res.Result, result)
		}
	}
	if n < 40 {
		t.Fatalf("only %d operators checked", n)
	}
}
