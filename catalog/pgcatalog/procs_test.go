package pgcatalog

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/builtins"
)

// pgRowOf is PostgreSQL 15's pg_proc row of OID oid (procs_gen.go).
func pgRowOf(t *testing.T) map[uint32]pgSig {
	t.Helper()
	out := map[uint32]pgSig{}
	for _, sigs := range pgSigs() {
		for _, s := range sigs {
			out[s.oid] = s
		}
	}
	if len(out) < 3000 {
		t.Fatalf("procs_gen.go holds %d functions; regenerate it with scripts/gen-pg-procs.sh", len(out))
	}
	return out
}

func procKey(name string, kind byte, args []uint32) string {
	return fmt.Sprintf("%s/%c(%s)", name, kind, procSig(args))
}

// TestProcsFromRegistry: pg_proc has one row per overload of the function
// registry, and no other, but for the overloads that leave arguments to
// the defaults of one of PostgreSQL's functions, which are that function's
// row (make_interval(integer) is make_interval's, with six defaults).
func TestProcsFromRegistry(t *testing.T) {
	got := map[string]int{}
	for _, p := range allProcs() {
		got[procKey(p.name, p.kind, p.args)]++
	}
	want := map[string]int{}
	folded := 0
	for _, f := range builtins.Procs() {
		args, _ := f.Signature()
		key := procKey(f.Name, byte(f.Kind), args)
		if got[key] == 0 && defaultsFormInProcs(f.Name, args) {
			folded++
			continue
		}
		want[key]++
	}
	for k, n := range got {
		if want[k] != n {
			t.Errorf("pg_proc has %d rows of %s, the registry %d", n, k, want[k])
		}
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("the registry has %d overloads %s, pg_proc %d", n, k, got[k])
		}
	}
	if folded == 0 || len(allProcs()) != len(builtins.Procs())-folded {
		t.Errorf("pg_proc has %d rows, the registry %d overloads, %d of them defaults' forms", len(allProcs()), len(builtins.Procs()), folded)
	}
	seen := map[uint32]bool{}
	for _, p := range allProcs() {
		if seen[p.oid] {
			t.Errorf("OID %d twice in pg_proc", p.oid)
		}
		seen[p.oid] = true
	}
}

// defaultsFormInProcs reports whether pg_proc has a function of that name
// with PostgreSQL's defaults whose leading arguments are args and whose
// other ones have defaults.
func defaultsFormInProcs(name string, args []uint32) bool {
	for _, p := range allProcs() {
		if p.name != name || p.pg == nil || len(p.args) <= len(args) || len(args) < len(p.args)-p.pg.nargDefaults {
			continue
		}
		if procSig(p.args[:len(args)]) == procSig(args) {
			return true
		}
	}
	return false
}

// TestBuiltinFunctionTexts: pg_get_function_arguments,
// pg_get_function_identity_arguments, pg_get_function_result and
// pg_get_functiondef of every built-in function that is one of PostgreSQL
// 15's print what PostgreSQL's do (testdata/pg_function_texts.txt, their
// hashes from scripts/gen-pg-procs.sh). The definition of a function whose
// volatility or strictness is knowingly zproxy's own (knownDeviations)
// says so, as its pg_proc row does.
func TestBuiltinFunctionTexts(t *testing.T) {
	data, err := os.ReadFile("testdata/pg_function_texts.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint32][]string{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(line, "|")
		if strings.HasPrefix(line, "#") || len(f) != 5 {
			continue
		}
		oid, _ := strconv.ParseUint(f[0], 10, 32)
		want[uint32(oid)] = f[1:]
	}
	hash := func(s string) string {
		h := md5.Sum([]byte(s))
		return hex.EncodeToString(h[:])[:8]
	}
	checked := 0
	for _, p := range allProcs() {
		w, ok := want[p.oid]
		if !ok || p.pg == nil {
			continue
		}
		def := ""
		if p.kind != 'a' {
			def = builtinDef(p)
		}
		if _, deviates := knownDeviations[procDisplay(*p.pg)]; deviates {
			def = "(not compared)"
			w = append(w[:3:3], hash(def))
		}
		got := []string{builtinArgumentsText(p, true), builtinArgumentsText(p, false), builtinResult(p), def}
		for i, what := range []string{"pg_get_function_arguments", "pg_get_function_identity_arguments", "pg_get_function_result", "pg_get_functiondef"} {
			if hash(got[i]) != w[i] {
				t.Errorf("%s of %s(%s) (OID %d) differs from PostgreSQL's: zproxy's is\n%s", what, p.name, p.argList(), p.oid, got[i])
			}
		}
		checked++
	}
	if checked < 1000 {
		t.Errorf("only %d built-in functions checked", checked)
	}
}

// TestAggregateAndWindowProcs: every overload of every aggregate and
// window function (and of the set-returning functions the planner binds)
// is in pg_proc with PostgreSQL 15's OID and PostgreSQL 15's attributes:
// prokind, proretset, provolatile, proisstrict, pronargs, proargtypes,
// prorettype.
func TestAggregateAndWindowProcs(t *testing.T) {
	pg := pgRowOf(t)
	byKey := map[string]*pgProc{}
	for _, p := range allProcs() {
		byKey[procKey(p.name, p.kind, p.args)] = p
	}
	var funcs []*builtins.Func
	funcs = append(funcs, builtins.Aggregates()...)
	funcs = append(funcs, builtins.Windows()...)
	if len(funcs) < 40 {
		t.Fatalf("only %d aggregate and window functions registered", len(funcs))
	}
	check := func(name string, kind builtins.Kind, ov *builtins.Overload) {
		args, _ := ov.Signature()
		p, ok := byKey[procKey(name, byte(kind), args)]
		if !ok {
			t.Errorf("%s(%s) is not in pg_proc", name, procSig(args))
			return
		}
		if !CoreFunction(name) {
			// An extension's (PostGIS's st_extent): its OID is the one
			// CREATE EXTENSION would assign, none of PostgreSQL's.
			return
		}
		row, ok := pg[p.oid]
		if !ok {
			t.Errorf("%s(%s) has OID %d, not one of PostgreSQL's", name, procSig(args), p.oid)
			return
		}
		got := fmt.Sprintf("%s|%s|%d|%c|%v|%c|%v|%d", p.name, procSig(p.args), p.ret, p.kind, p.retset, p.vol, p.strict, len(p.args))
		want := fmt.Sprintf("%s|%s|%d|%c|%v|%c|%v|%d", row.name, row.args, row.ret, row.kind, row.retset, row.vol, row.strict, len(strings.Fields(row.args)))
		if got != want {
			t.Errorf("pg_proc row %d:\n got  %s\n want %s (PostgreSQL 15)", p.oid, got, want)
		}
		if ov.Doc == "" {
			t.Errorf("%s(%s) has no doc", name, procSig(args))
		}
	}
	for _, f := range funcs {
		if len(f.Overloads) == 0 {
			t.Errorf("%s has no overloads", f.Name)
		}
		for i := range f.Overloads {
			check(f.Name, f.Kind, &f.Overloads[i])
		}
	}
	for _, f := range builtins.Procs() {
		if f.Kind == builtins.KindFunction && f.Retset && f.Set == nil {
			check(f.Name, f.Kind, f.Overload)
		}
	}
	// Every aggregate and window function PostgreSQL has under a name
	// zproxy registers is either registered or has an argument type zproxy
	// lacks (money, bit, inet, ...), or is a hypothetical-set form.
	for _, f := range funcs {
		for _, s := range pgSigs()[f.Name] {
			if s.kind == 'f' {
				continue
			}
			if _, ok := byKey[procKey(s.name, s.kind, argOIDs(s.args))]; ok {
				continue
			}
			if lacksType(s) || s.kind == 'a' && f.Kind == builtins.KindWindow {
				continue
			}
			t.Errorf("PostgreSQL's %s(%s) (OID %d) is missing from the registry", s.name, s.args, s.oid)
		}
	}
}

func argOIDs(s string) []uint32 {
	var out []uint32
	for _, f := range strings.Fields(s) {
		var n uint32
		fmt.Sscan(f, &n)
		out = append(out, n)
	}
	return out
}

// lacksType reports whether a PostgreSQL signature has a type zproxy has
// no values of.
func lacksType(s pgSig) bool {
	for _, oid := range append(argOIDs(s.args), s.ret) {
		switch oid {
		case 27, 142, 790, 869, 1560, 3220, 3500, 3831, 4537, 5069:
			// tid, xml, money, inet, bit, pg_lsn, anyenum, anyrange,
			// anymultirange, xid8
			return true
		case 2277:
			// array_agg(anyarray): arrays of arrays are not supported.
			if s.name == "array_agg" && s.args == "2277" {
				return true
			}
		}
	}
	return false
}

// TestScalarProcs: a scalar function with one of PostgreSQL's signatures
// has PostgreSQL's kind and proretset.
func TestScalarProcs(t *testing.T) {
	pg := pgRowOf(t)
	for _, p := range allProcs() {
		row, ok := pg[p.oid]
		if !ok || p.kind != 'f' || row.args != procSig(p.args) {
			continue
		}
		if row.kind != p.kind || row.retset != p.retset {
			t.Errorf("%s(%s): kind %c retset %v, PostgreSQL %c %v", p.name, row.args, p.kind, p.retset, row.kind, row.retset)
		}
	}
}
