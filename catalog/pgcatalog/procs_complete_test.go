package pgcatalog

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
	// The types' send functions register from package wire, whose binary
	// encoder they are; the server links it, so pg_proc has them.
	_ "github.com/zproxy/zproxy/wire"
)

// heldType reports whether zproxy has values of the type of that OID: one
// of sqltypes' types (arrays included) or a pseudo-type zproxy's functions
// are declared with (builtins.Pseudos: the polymorphic ones and record).
// Every other type of PostgreSQL (money, tsvector, ranges, cstring,
// internal, trigger ...) is one zproxy cannot hold, so a function over it
// cannot be called through zproxy at all.
func heldType(oid uint32) bool {
	if _, ok := sqltypes.TypeByOID(oid); ok {
		return true
	}
	for _, p := range builtins.Pseudos() {
		if uint32(p) == oid {
			return true
		}
	}
	return false
}

// overHeldTypes reports whether every argument and the result of a
// PostgreSQL function are types zproxy holds.
func overHeldTypes(s pgSig) bool {
	for _, oid := range append(argOIDs(s.args), s.ret) {
		if !heldType(oid) {
			return false
		}
	}
	return true
}

// procDisplay is a PostgreSQL function as the exclusion list names it:
// name(type, type), the types as format_type spells them.
func procDisplay(s pgSig) string {
	args := argOIDs(s.args)
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = typeName(a)
	}
	return s.name + "(" + strings.Join(names, ", ") + ")"
}

// exclusion is one entry of testdata/procs_excluded.txt: a function
// (name(types), or name(*) for all its overloads) and its group's reason.
type exclusion struct {
	entry, reason string
	line          int
	used          bool
}

// readExclusions reads testdata/procs_excluded.txt: groups, each a line
// "## reason" followed by the functions it excludes, one a line; "#"
// lines are comments.
func readExclusions(t *testing.T) []*exclusion {
	t.Helper()
	f, err := os.Open("testdata/procs_excluded.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*exclusion
	reason := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "##"):
			reason = strings.TrimSpace(strings.TrimPrefix(line, "##"))
		case line == "" || strings.HasPrefix(line, "#"):
		case reason == "":
			t.Fatalf("procs_excluded.txt:%d: %s has no reason (a \"## reason\" line before it)", n, line)
		case !strings.HasSuffix(line, ")") || !strings.Contains(line, "("):
			t.Fatalf("procs_excluded.txt:%d: %q is not name(types) or name(*)", n, line)
		default:
			out = append(out, &exclusion{entry: line, reason: reason, line: n})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func (x *exclusion) matches(s pgSig) bool {
	if name, ok := strings.CutSuffix(x.entry, "(*)"); ok {
		return name == s.name
	}
	return x.entry == procDisplay(s)
}

// operatorFunctions are the functions implementing the operators zproxy
// has (its pg_operator rows, operators_gen.go), by OID.
func operatorFunctions() map[uint32]string {
	out := map[uint32]string{}
	for _, line := range strings.Split(strings.TrimSpace(pgOperatorTable), "\n") {
		f := operatorFields(line)
		if f == nil {
			continue
		}
		var oid uint32
		fmt.Sscan(f[10], &oid)
		out[oid] = f[1]
	}
	return out
}

// TestPostgresFunctionsComplete walks every function of PostgreSQL 15's
// pg_catalog (procs_gen.go) whose arguments and result are types zproxy
// holds, and fails for each one the function registry lacks, unless it is
// on testdata/procs_excluded.txt, by group with a reason. The functions
// implementing an operator zproxy has (its pg_operator rows) are the
// operator's: they are counted apart, not listed. An entry of the list
// that excludes nothing (the function is registered now, or PostgreSQL
// has none such over zproxy's types) fails too, so the list only shrinks.
func TestPostgresFunctionsComplete(t *testing.T) {
	registered := map[string]bool{}
	for _, f := range builtins.Procs() {
		args, _ := f.Signature()
		registered[f.Name+"("+procSig(args)+")"] = true
	}
	opFuncs := operatorFunctions()
	exclusions := readExclusions(t)
	var all []pgSig
	for _, sigs := range pgSigs() {
		all = append(all, sigs...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].oid < all[j].oid })
	var over, have, byType, byOperator int
	byReason := map[string]int{}
	var missing []string
	for _, s := range all {
		if !overHeldTypes(s) {
			byType++
			continue
		}
		over++
		if registered[s.name+"("+s.args+")"] {
			have++
			continue
		}
		if _, ok := opFuncs[s.oid]; ok {
			byOperator++
			continue
		}
		excluded := false
		for _, x := range exclusions {
			if x.matches(s) {
				x.used, excluded = true, true
				byReason[x.reason]++
				break
			}
		}
		if !excluded {
			missing = append(missing, fmt.Sprintf("%s (OID %d)", procDisplay(s), s.oid))
		}
	}
	t.Logf("PostgreSQL 15 has %d functions in pg_catalog; %d have a type zproxy cannot hold and are left out", len(all), byType)
	t.Logf("%d are over zproxy's types: %d registered, %d implement one of zproxy's operators, %d excluded by testdata/procs_excluded.txt, %d missing",
		over, have, byOperator, over-have-byOperator-len(missing), len(missing))
	reasons := make([]string, 0, len(byReason))
	for r := range byReason {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		t.Logf("  excluded %4d: %s", byReason[r], r)
	}
	for _, m := range missing {
		t.Errorf("PostgreSQL 15's %s is not registered and not on testdata/procs_excluded.txt", m)
	}
	for _, x := range exclusions {
		if !x.used {
			t.Errorf("procs_excluded.txt:%d: %s excludes no missing function of PostgreSQL 15 over zproxy's types; remove it", x.line, x.entry)
		}
	}
}

// knownDeviations are the registered overloads whose pg_proc attributes
// differ from PostgreSQL 15's on purpose, with why.
var knownDeviations = map[string]string{
	// zproxy folds immutable calls with constant arguments when a
	// statement is bound, before a session's TimeZone is known;
	// PostgreSQL marks these immutable although they read TimeZone.
	"age(timestamp with time zone, timestamp with time zone)": "stable: reads TimeZone",
	"timezone(interval, time with time zone)":                 "stable: reads TimeZone",
	// set_config(name, NULL, ...) resets the setting in PostgreSQL;
	// zproxy's is strict (a NULL argument gives NULL and sets nothing).
	"set_config(text, text, boolean)": "strict",
	// The multiranges' variadic constructors see their members as
	// arguments: a NULL one is PostgreSQL's 22004, not a NULL result.
	"int4multirange(int4range[])": "called on NULL: a NULL member is 22004",
	"int8multirange(int8range[])": "called on NULL: a NULL member is 22004",
	"nummultirange(numrange[])":   "called on NULL: a NULL member is 22004",
	"tsmultirange(tsrange[])":     "called on NULL: a NULL member is 22004",
	"tstzmultirange(tstzrange[])": "called on NULL: a NULL member is 22004",
	"datemultirange(daterange[])": "called on NULL: a NULL member is 22004",
	// PostgreSQL marks it immutable, though it reads pg_inherits; zproxy
	// would fold an immutable call with a constant argument at bind time,
	// where it has no catalog.
	"pg_partition_root(regclass)": "stable: reads the catalog",
	// An aclitem holds role names, which these map to and from OIDs
	// (aclitem.go): the same reason.
	`acldefault("char", oid)`:                "stable: reads the catalog",
	"makeaclitem(oid, oid, text, boolean)":   "stable: reads the catalog",
	"hash_aclitem(aclitem)":                  "stable: reads the catalog",
	"hash_aclitem_extended(aclitem, bigint)": "stable: reads the catalog",
}

// TestRegisteredProcsMatchPostgres: every registered overload with one of
// PostgreSQL 15's signatures over types zproxy holds has PostgreSQL's
// result type, volatility and strictness, and returns a set exactly when
// PostgreSQL's does (but for knownDeviations).
func TestRegisteredProcsMatchPostgres(t *testing.T) {
	pg := map[string]pgSig{}
	for _, sigs := range pgSigs() {
		for _, s := range sigs {
			pg[s.name+"("+s.args+")"] = s
		}
	}
	n := 0
	deviating := map[string]bool{}
	for _, f := range builtins.Procs() {
		p := procOf(f)
		s, ok := pg[p.name+"("+procSig(p.args)+")"]
		if !ok || !overHeldTypes(s) {
			continue
		}
		n++
		if _, ok := knownDeviations[procDisplay(s)]; ok {
			deviating[procDisplay(s)] = true
			continue
		}
		got := fmt.Sprintf("returns %s, %c, retset %v, strict %v", typeName(p.ret), p.vol, p.retset, p.strict)
		want := fmt.Sprintf("returns %s, %c, retset %v, strict %v", typeName(s.ret), s.vol, s.retset, s.strict)
		if got != want {
			t.Errorf("%s: %s; PostgreSQL 15's %s", procDisplay(s), got, want)
		}
	}
	if n < 400 {
		t.Fatalf("only %d registered overloads have PostgreSQL 15's signatures", n)
	}
	for sig := range knownDeviations {
		if !deviating[sig] {
			t.Errorf("knownDeviations lists %s, which is not registered with PostgreSQL's signature", sig)
		}
	}
}

// TestRolePrivileges: pg_has_role's privilege lists, read as PostgreSQL
// 15 reads them.
func TestRolePrivileges(t *testing.T) {
	cases := []struct {
		list          string
		member, admin bool
		ok            bool
	}{
		{"MEMBER", true, false, true},
		{" usage , member ", true, false, true},
		{"MEMBER WITH ADMIN OPTION", false, true, true},
		{"usage with grant option, member", true, true, true},
		{"SET", false, false, false},
		{"member,", false, false, false},
	}
	for _, c := range cases {
		m, a, err := rolePrivileges(c.list)
		if (err == nil) != c.ok || c.ok && (m != c.member || a != c.admin) {
			t.Errorf("rolePrivileges(%q) = %v, %v, %v; want %v, %v, ok %v", c.list, m, a, err, c.member, c.admin, c.ok)
		}
	}
}
