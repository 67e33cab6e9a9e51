package pgcatalog

import (
	"hash/fnv"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// pgProc is one row of pg_proc: a function zproxy has, with PostgreSQL's
// OID when PostgreSQL has the same signature.
type pgProc struct {
	oid      uint32
	name     string
	args     []uint32
	variadic bool
	ret      uint32
	kind     byte // f function, a aggregate, w window
	retset   bool
	strict   bool
	vol      byte
	// pg is PostgreSQL's function of the same name and argument types,
	// whose attributes the row shows; nil for one of zproxy's own.
	pg *pgSig
}

func (p *pgProc) argList() string {
	names := make([]string, len(p.args))
	for i, a := range p.args {
		names[i] = typeName(a)
	}
	return strings.Join(names, ", ")
}

func typeName(oid uint32) string {
	if t, ok := typesByOID[oid]; ok {
		return t.display
	}
	return "???"
}

// pgSig is one function of PostgreSQL's pg_proc (procs_gen.go).
type pgSig struct {
	oid    uint32
	name   string
	args   string
	ret    uint32
	kind   byte
	retset bool
	vol    byte
	strict bool

	// The attributes a zproxy function of the same signature shows in
	// pg_proc and its texts (pg_get_functiondef and the others).
	lang         uint32
	cost, rows   float64
	support      string // the support function's name, "" for none
	parallel     byte
	leakproof    bool
	nargDefaults int
	allArgs      []uint32 // proallargtypes; nil when every argument is IN
	modes        string   // proargmodes, one byte an argument; "" when every one is IN
	argNames     []string // proargnames; nil when no argument has a name
	defaults     []string // the defaults' expressions, of the last nargDefaults inputs
	src          string   // prosrc
	sqlBody      string   // pg_get_function_sqlbody: a BEGIN ATOMIC body, or ""
}

var (
	procsOnce  sync.Once
	procs      []*pgProc
	procsByOID map[uint32]*pgProc
)

// pgSigs is procs_gen.go's table by function name, read once; callers
// do not change it.
var pgSigs = sync.OnceValue(func() map[string][]pgSig {
	known := map[string][]pgSig{}
	for _, line := range strings.Split(strings.TrimSpace(pgProcTable), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 21 {
			panic("procs_gen.go: a row without 21 fields: " + line)
		}
		oid, _ := strconv.ParseUint(f[0], 10, 32)
		ret, _ := strconv.ParseUint(f[3], 10, 32)
		lang, _ := strconv.ParseUint(f[8], 10, 32)
		cost, _ := strconv.ParseFloat(f[9], 64)
		rows, _ := strconv.ParseFloat(f[10], 64)
		nDefaults, _ := strconv.Atoi(f[14])
		s := pgSig{oid: uint32(oid), name: f[1], args: f[2], ret: uint32(ret),
			kind: f[4][0], retset: f[5] == "t", vol: f[6][0], strict: f[7] == "t",
			lang: uint32(lang), cost: cost, rows: rows, parallel: f[12][0], leakproof: f[13] == "t",
			nargDefaults: nDefaults, modes: f[16], src: unescapeProcField(f[19]), sqlBody: unescapeProcField(f[20])}
		if f[11] != "-" {
			s.support = f[11]
		}
		for _, a := range strings.Fields(f[15]) {
			t, _ := strconv.ParseUint(a, 10, 32)
			s.allArgs = append(s.allArgs, uint32(t))
		}
		if names := unescapeProcField(f[17]); names != "" {
			s.argNames = strings.Split(names, ",")
		}
		if d := unescapeProcField(f[18]); d != "" {
			s.defaults = splitTopLevel(d)
		}
		known[f[1]] = append(known[f[1]], s)
	}
	return known
})

// unescapeProcField reads a text field of procs_gen.go, which the
// generator escapes to keep it on its line and apart from the others:
// \\ is a backslash, \n a newline and \p a vertical bar.
func unescapeProcField(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 'p':
			b.WriteByte('|')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// splitTopLevel splits the defaults pg_get_expr prints of proargdefaults
// ("'{}'::jsonb, false") into their expressions: at the commas outside
// quotes and parentheses.
func splitTopLevel(s string) []string {
	var out []string
	depth, start, quoted := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			quoted = !quoted
		case quoted:
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// builtinProcCount is how many built-in functions are named name: as many
// as PostgreSQL 15's pg_catalog has, or, for a name it has none of,
// zproxy's own functions of the name.
func builtinProcCount(name string) int {
	if n := len(pgSigs()[name]); n > 0 {
		return n
	}
	return ownProcCounts()[name]
}

var ownProcCounts = sync.OnceValue(func() map[string]int {
	counts := map[string]int{}
	for _, p := range allProcs() {
		if len(pgSigs()[p.name]) == 0 {
			counts[p.name]++
		}
	}
	return counts
})

var (
	coreNamesOnce sync.Once
	coreNames     map[string]bool
)

// The deparser qualifies the extensions' functions by public where the
// search path leaves it out (catalog.Names.Routine).
func init() {
	catalog.ExtensionFunction = func(name string) bool {
		return strings.IndexByte(name, '.') < 0 && builtins.Exists(name) && !CoreFunction(name)
	}
}

// CoreFunction reports whether PostgreSQL 15's pg_catalog has a function
// named name: zproxy's other built-ins are its extensions' (pg_trgm's
// similarity, PostGIS's st_*), which PostgreSQL keeps in the schema the
// extension was created in, public here.
func CoreFunction(name string) bool {
	coreNamesOnce.Do(func() {
		coreNames = map[string]bool{}
		for n := range pgSigs() {
			coreNames[n] = true
		}
	})
	return coreNames[name]
}

// procSig is a function's argument type OIDs as procs_gen.go spells them.
func procSig(args []uint32) string {
	argText := make([]string, len(args))
	for i, a := range args {
		argText[i] = strconv.FormatUint(uint64(a), 10)
	}
	return strings.Join(argText, " ")
}

var volatilities = map[builtins.Volatility]byte{builtins.Immutable: 'i', builtins.Stable: 's', builtins.Volatile: 'v'}

// procOf is the pg_proc row of one overload of the registry, before its
// OID is chosen.
func procOf(f builtins.Proc) *pgProc {
	args, ret := f.Signature()
	return &pgProc{name: f.Name, kind: byte(f.Kind), args: args, ret: ret, variadic: f.Variadic,
		retset: f.ReturnsSet(), strict: !f.CalledOnNull, vol: volatilities[f.Volatility]}
}

// loadProcs builds pg_proc from the function registry of package builtins
// (scalar, set-returning, aggregate and window functions) and nothing
// else. A function keeps PostgreSQL's OID for the same name and argument
// types, else the OID of one of PostgreSQL's of that name and arity, else
// a stable OID of its own.
func loadProcs() {
	known := pgSigs()
	used := map[uint32]bool{}
	var rows []*pgProc
	for _, f := range builtins.Procs() {
		rows = append(rows, procOf(f))
	}
	// PostgreSQL's exact signatures first, so an inexact match never takes
	// the OID of another overload's exact one.
	for _, p := range rows {
		sig := procSig(p.args)
		for i, k := range known[p.name] {
			if k.args == sig && !used[k.oid] {
				p.oid, p.pg = k.oid, &known[p.name][i]
				used[p.oid] = true
				break
			}
		}
	}
	// The registry's overloads that leave trailing arguments to their
	// defaults (make_interval(integer)) are calls of PostgreSQL's one
	// function with defaults, which pg_proc has once.
	kept := rows[:0]
	for _, p := range rows {
		if p.oid == 0 && defaultsForm(p, known[p.name], used) {
			continue
		}
		kept = append(kept, p)
	}
	rows = kept
	for _, p := range rows {
		if p.oid == 0 {
			for _, k := range known[p.name] {
				if len(strings.Fields(k.args)) == len(p.args) && !used[k.oid] {
					p.oid = k.oid
					break
				}
			}
		}
		if p.oid == 0 {
			// Not one of PostgreSQL's: a stable OID in the range PostgreSQL
			// leaves to development (8000-9999).
			h := fnv.New32a()
			h.Write([]byte(p.name + "(" + procSig(p.args) + ")"))
			p.oid = 8000 + h.Sum32()%2000
			for used[p.oid] {
				p.oid = 8000 + (p.oid-8000+1)%2000
			}
		}
		used[p.oid] = true
	}
	procs = rows
	sort.Slice(procs, func(i, j int) bool { return procs[i].oid < procs[j].oid })
	procsByOID = map[uint32]*pgProc{}
	for _, p := range procs {
		procsByOID[p.oid] = p
	}
}

// defaultsForm reports whether p is one of PostgreSQL's functions (one of
// sigs, which a registry overload has exactly: used) with its last
// arguments left to their defaults.
func defaultsForm(p *pgProc, sigs []pgSig, used map[uint32]bool) bool {
	sig := procSig(p.args)
	for _, k := range sigs {
		full := strings.Fields(k.args)
		n := len(p.args)
		if used[k.oid] && k.nargDefaults > 0 && n < len(full) && n >= len(full)-k.nargDefaults &&
			strings.Join(full[:n], " ") == sig {
			return true
		}
	}
	return false
}

func allProcs() []*pgProc {
	procsOnce.Do(loadProcs)
	return procs
}

func procByOID(oid uint32) (*pgProc, bool) {
	procsOnce.Do(loadProcs)
	p, ok := procsByOID[oid]
	return p, ok
}

// procOID reads a function name as regproc's input (a name that must be
// unique) or regprocedure's (name(argtypes)).
func procOID(name string, withArgs bool) (uint32, error) {
	procsOnce.Do(loadProcs)
	n := strings.TrimSpace(name)
	args := ""
	if i := strings.IndexByte(n, '('); i >= 0 {
		args = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(n[i+1:]), ")"))
		n = strings.TrimSpace(n[:i])
	} else if withArgs {
		return 0, pgerr.New(pgerr.InvalidTextRepresentation, "expected a left parenthesis")
	}
	n = strings.TrimPrefix(unquoteIdent(n), "pg_catalog.")
	var found []*pgProc
	for _, p := range procs {
		if p.name != n {
			continue
		}
		if withArgs && normalizeArgs(p.argList()) != normalizeArgs(args) {
			continue
		}
		found = append(found, p)
	}
	if len(found) == 0 {
		// The functions PostgreSQL has that zproxy's registry does not
		// (the types' input and output functions pg_type names, which
		// clients look up: Rails' 'array_in(cstring,oid,integer)'::regprocedure).
		if oid, ok, err := postgresProcOID(n, args, withArgs); ok || err != nil {
			return oid, err
		}
	}
	switch {
	case len(found) == 1:
		return found[0].oid, nil
	case len(found) > 1:
		return 0, pgerr.New(pgerr.AmbiguousFunction, "more than one function named %q", n)
	case withArgs:
		return 0, pgerr.New(pgerr.UndefinedFunction, "function %q does not exist", name)
	}
	return 0, pgerr.New(pgerr.UndefinedFunction, "function %q does not exist", n)
}

func normalizeArgs(s string) string {
	var parts []string
	for _, a := range strings.Split(s, ",") {
		a = strings.TrimSpace(strings.ToLower(a))
		if a == "" {
			continue
		}
		if t, ok := sqltypes.ParseTypeName(a); ok {
			a = t.String()
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, ",")
}

// postgresProcOID looks name (and, withArgs, its argument types) up in
// PostgreSQL 15's functions (procs_gen.go); ok is false when there is none.
func postgresProcOID(name, args string, withArgs bool) (oid uint32, ok bool, err error) {
	var found []pgSig
	for _, sig := range pgSigs()[name] {
		if withArgs && !sameArgTypes(sig.args, args) {
			continue
		}
		found = append(found, sig)
	}
	switch {
	case len(found) == 1:
		return found[0].oid, true, nil
	case len(found) > 1:
		return 0, false, pgerr.New(pgerr.AmbiguousFunction, "more than one function named \"%s\"", name)
	}
	return 0, false, nil
}

// sameArgTypes reports whether oids (space-separated type OIDs, as
// procs_gen.go lists a function's arguments) are the types named in
// names (comma-separated, as regprocedure's input writes them).
func sameArgTypes(oids, names string) bool {
	want := strings.Fields(oids)
	var got []string
	for _, n := range strings.Split(names, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		oid, err := (&Env{}).typeOID(n)
		if err != nil {
			return false
		}
		got = append(got, strconv.FormatUint(uint64(oid), 10))
	}
	return strings.Join(got, " ") == strings.Join(want, " ")
}

var pgSigByOID = sync.OnceValue(func() map[uint32]pgSig {
	out := map[uint32]pgSig{}
	for _, sigs := range pgSigs() {
		for _, s := range sigs {
			out[s.oid] = s
		}
	}
	return out
})

// postgresProcByOID is PostgreSQL 15's function of that OID (procs_gen.go).
func postgresProcByOID(oid uint32) (pgSig, bool) {
	s, ok := pgSigByOID()[oid]
	return s, ok
}

// BuiltinFunction is the built-in plain function (no aggregate, window or
// set-returning one) whose pg_proc OID is oid: its name and argument type
// OIDs. The function-call protocol calls functions by OID.
func BuiltinFunction(oid uint32) (name string, args []uint32, ok bool) {
	p, ok := procByOID(oid)
	if !ok || p.kind != 'f' || p.retset || p.variadic {
		return "", nil, false
	}
	return p.name, p.args, true
}
