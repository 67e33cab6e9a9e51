package pgcatalog

import (
	"hash/fnv"
	"sort"
	"strconv"
	"strings"
	"sync"

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

type pgSig struct {
	oid    uint32
	args   string
	ret    uint32
	kind   byte
	retset bool
}

var (
	procsOnce  sync.Once
	procs      []*pgProc
	procsByOID map[uint32]*pgProc
)

// extraProcs are functions zproxy evaluates outside the builtins registry
// (aggregates, window functions, functions in FROM, and the few the
// planner binds itself), as (name, kind, args, result).
var extraProcs = []struct {
	name string
	kind byte
	args []uint32
	ret  uint32
	set  bool
}{
	{"count", 'a', nil, 20, false}, {"count", 'a', []uint32{2276}, 20, false},
	{"sum", 'a', []uint32{20}, 1700, false}, {"sum", 'a', []uint32{23}, 20, false}, {"sum", 'a', []uint32{701}, 701, false},
	{"avg", 'a', []uint32{20}, 1700, false}, {"avg", 'a', []uint32{701}, 701, false},
	{"min", 'a', []uint32{2277}, 2277, false}, {"max", 'a', []uint32{2277}, 2277, false},
	{"bool_and", 'a', []uint32{16}, 16, false}, {"bool_or", 'a', []uint32{16}, 16, false}, {"every", 'a', []uint32{16}, 16, false},
	{"string_agg", 'a', []uint32{25, 25}, 25, false}, {"array_agg", 'a', []uint32{2776}, 2277, false},
	{"row_number", 'w', nil, 20, false}, {"rank", 'w', nil, 20, false}, {"dense_rank", 'w', nil, 20, false},
	{"lag", 'w', []uint32{2283}, 2283, false}, {"lead", 'w', []uint32{2283}, 2283, false},
	{"generate_series", 'f', []uint32{23, 23}, 23, true}, {"generate_series", 'f', []uint32{20, 20}, 20, true},
	{"unnest", 'f', []uint32{2277}, 2283, true},
	{"coalesce", 'f', []uint32{2276}, 2283, false}, {"greatest", 'f', []uint32{2276}, 2283, false}, {"least", 'f', []uint32{2276}, 2283, false},
	{"nullif", 'f', []uint32{2276, 2276}, 2283, false}, {"concat", 'f', []uint32{2276}, 25, false},
}

func loadProcs() {
	known := map[string][]pgSig{}
	for _, line := range strings.Split(strings.TrimSpace(pgProcTable), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 6 {
			continue
		}
		oid, _ := strconv.ParseUint(f[0], 10, 32)
		ret, _ := strconv.ParseUint(f[3], 10, 32)
		known[f[1]] = append(known[f[1]], pgSig{oid: uint32(oid), args: f[2], ret: uint32(ret), kind: f[4][0], retset: f[5] == "t"})
	}
	used := map[uint32]bool{}
	add := func(p *pgProc) {
		argText := make([]string, len(p.args))
		for i, a := range p.args {
			argText[i] = strconv.FormatUint(uint64(a), 10)
		}
		sig := strings.Join(argText, " ")
		for _, k := range known[p.name] {
			if k.args == sig && !used[k.oid] {
				p.oid = k.oid
				break
			}
		}
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
			h.Write([]byte(p.name + "(" + sig + ")"))
			p.oid = 8000 + h.Sum32()%2000
			for used[p.oid] {
				p.oid = 8000 + (p.oid-8000+1)%2000
			}
		}
		used[p.oid] = true
		procs = append(procs, p)
	}
	for _, name := range builtins.Names() {
		if strings.HasPrefix(name, "zp_") {
			continue
		}
		for _, ov := range builtins.Overloads(name) {
			p := &pgProc{name: name, kind: 'f', strict: !ov.CalledOnNull, variadic: ov.Variadic}
			types := make([]sqltypes.Type, len(ov.Params))
			for i, prm := range ov.Params {
				if prm.Any {
					p.args = append(p.args, 2283) // anyelement
					types[i] = sqltypes.TypeText
					continue
				}
				p.args = append(p.args, prm.Type.OID())
				types[i] = prm.Type
			}
			p.ret = 2283
			if ov.Result != nil {
				if r := ov.Result(types); r.OID() != 0 {
					p.ret = r.OID()
				}
			}
			p.vol = map[builtins.Volatility]byte{builtins.Immutable: 'i', builtins.Stable: 's', builtins.Volatile: 'v'}[ov.Volatility]
			add(p)
		}
	}
	for _, x := range extraProcs {
		add(&pgProc{name: x.name, kind: x.kind, args: x.args, ret: x.ret, retset: x.set, vol: 'i'})
	}
	sort.Slice(procs, func(i, j int) bool { return procs[i].oid < procs[j].oid })
	procsByOID = map[uint32]*pgProc{}
	for _, p := range procs {
		procsByOID[p.oid] = p
	}
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
	if len(found) == 0 && !withArgs {
		// The types' input and output functions, which pg_type names.
		for _, t := range builtinTypes {
			for _, p := range []proc{t.in, t.out, t.recv, t.send} {
				if p.name == n {
					return p.oid, nil
				}
			}
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
