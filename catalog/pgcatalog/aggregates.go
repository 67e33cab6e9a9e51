package pgcatalog

import (
	"strconv"
	"strings"
	"sync"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// pg_aggregate's rows: PostgreSQL 15's rows of the built-in aggregates
// zproxy's function registry has (pg_proc's rows of kind 'a' that keep
// PostgreSQL's OID for the same signature), from aggregates_gen.go, which
// gen/aggregates.go writes from PostgreSQL; then the user-defined
// aggregates (CREATE AGGREGATE), the definition each Function descriptor
// of kind 'a' holds.

// pgAggregate is PostgreSQL's pg_aggregate row of a built-in aggregate.
type pgAggregate struct {
	fnoid         uint32
	name          string
	kind          byte // n normal, o ordered-set, h hypothetical-set
	numDirectArgs int
	// procs are aggtransfn, aggfinalfn, aggcombinefn, aggserialfn,
	// aggdeserialfn, aggmtransfn, aggminvtransfn and aggmfinalfn.
	procs                     [8]proc
	finalExtra, mfinalExtra   bool
	finalModify, mfinalModify byte
	sortop                    uint32
	transType, mtransType     uint32
	transSpace, mtransSpace   int32
	initval, minitval         string
	hasInitval, hasMinitval   bool
}

// builtinAggregateRows are pg_aggregate's rows of the built-in aggregates
// zproxy has: an aggregate of pg_proc whose OID PostgreSQL gives the
// same signature, so its support functions and state are the ones
// PostgreSQL's row names.
func (e *Env) builtinAggregateRows() []row {
	byOID := builtinAggregatesByOID()
	var out []row
	for _, p := range allProcs() {
		a, ok := byOID[p.oid]
		if !ok || p.kind != 'a' {
			continue
		}
		if sig, ok := postgresProcByOID(p.oid); !ok || sig.args != procSig(p.args) {
			continue // an OID taken for another signature of the name
		}
		fn := func(p proc) sqltypes.Value {
			if p.oid == 0 {
				return regprocV(proc{})
			}
			return regprocV(proc{p.oid, e.builtinRegprocName(p.name)})
		}
		r := &pgAggregateRow{Aggfnoid: fn(proc{a.fnoid, a.name}), Aggkind: charV(a.kind), Aggnumdirectargs: intV(int64(a.numDirectArgs)),
			Aggtransfn: fn(a.procs[0]), Aggfinalfn: fn(a.procs[1]), Aggcombinefn: fn(a.procs[2]), Aggserialfn: fn(a.procs[3]),
			Aggdeserialfn: fn(a.procs[4]), Aggmtransfn: fn(a.procs[5]), Aggminvtransfn: fn(a.procs[6]), Aggmfinalfn: fn(a.procs[7]),
			Aggfinalextra: boolV(a.finalExtra), Aggmfinalextra: boolV(a.mfinalExtra),
			Aggfinalmodify: charV(a.finalModify), Aggmfinalmodify: charV(a.mfinalModify), Aggsortop: oidV(a.sortop),
			Aggtranstype: oidV(a.transType), Aggtransspace: intV(int64(a.transSpace)), Aggmtranstype: oidV(a.mtransType),
			Aggmtransspace: intV(int64(a.mtransSpace)), Agginitval: sqltypes.Null, Aggminitval: sqltypes.Null}
		if a.hasInitval {
			r.Agginitval = textV(a.initval)
		}
		if a.hasMinitval {
			r.Aggminitval = textV(a.minitval)
		}
		out = append(out, r)
	}
	return out
}

// builtinArguments is pg_get_function_arguments of a built-in function,
// as PostgreSQL's print_function_arguments spells it: VARIADIC before the
// variadic argument, and for an ordered-set or hypothetical-set aggregate
// ORDER BY before the aggregated arguments (after the direct ones), the
// variadic argument printed again after it when it is the last direct one
// (rank(VARIADIC "any" ORDER BY VARIADIC "any")).
func builtinArguments(p *pgProc) string {
	orderBy := -1
	if a, ok := builtinAggregatesByOID()[p.oid]; ok && p.kind == 'a' && a.kind != 'n' {
		orderBy = a.numDirectArgs
	}
	var b strings.Builder
	printed := 0
	for i := 0; i < len(p.args); i++ {
		switch {
		case printed == orderBy:
			if printed > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("ORDER BY ")
		case printed > 0:
			b.WriteString(", ")
		}
		if p.variadic && i == len(p.args)-1 {
			b.WriteString("VARIADIC ")
		}
		b.WriteString(typeName(p.args[i]))
		printed++
		if printed == orderBy && i == len(p.args)-1 {
			i-- // the variadic direct argument again, after ORDER BY
		}
	}
	return b.String()
}

// builtinAggregatesByOID indexes aggregates_gen.go by aggfnoid.
var builtinAggregatesByOID = sync.OnceValue(func() map[uint32]*pgAggregate {
	m := make(map[uint32]*pgAggregate, len(builtinAggregates))
	for i := range builtinAggregates {
		m[builtinAggregates[i].fnoid] = &builtinAggregates[i]
	}
	return m
})

func init() {
	generate("pg_catalog.pg_aggregate", func(e *Env) []row {
		out := e.builtinAggregateRows()
		if e.Snap == nil {
			return out
		}
		for _, f := range e.Snap.AllFunctions() {
			a := f.Aggregate
			if a == nil {
				continue
			}
			out = append(out, &pgAggregateRow{Aggfnoid: regprocV(proc{f.OID, f.Name}), Aggkind: charV('n'), Aggnumdirectargs: intV(0),
				Aggtransfn: supportProc(e, a.Trans), Aggfinalfn: supportProc(e, a.Final), Aggcombinefn: supportProc(e, a.Combine),
				Aggserialfn: supportProc(e, a.Serial), Aggdeserialfn: supportProc(e, a.Deserial), Aggmtransfn: supportProc(e, a.MTrans),
				Aggminvtransfn: supportProc(e, a.MInvTrans), Aggmfinalfn: supportProc(e, a.MFinal),
				Aggfinalextra: boolV(a.FinalExtra), Aggmfinalextra: boolV(a.MFinalExtra),
				Aggfinalmodify: charV(a.FinalModify), Aggmfinalmodify: charV(a.MFinalModify), Aggsortop: oidV(a.SortOp),
				Aggtranstype: oidV(a.State.OID()), Aggtransspace: intV(int64(a.SSpace)), Aggmtranstype: oidV(a.MState.OID()),
				Aggmtransspace: intV(int64(a.MSSpace)), Agginitval: optText(a.InitCond), Aggminitval: optText(a.MInitCond)})
		}
		return out
	})
}

func optText(s *string) sqltypes.Value {
	if s == nil {
		return sqltypes.Null
	}
	return textV(*s)
}

// supportProc is the regproc of an aggregate's support function: a user
// function's OID, a built-in's pg_proc OID (0, "-", for none).
func supportProc(e *Env, r catalog.FuncRef) sqltypes.Value {
	switch {
	case r.IsZero():
		return regprocV(proc{})
	}
	return regprocV(proc{funcRefOID(r), r.Name})
}

// OperatorOID is the pg_operator OID of the built-in operator name over
// left and right (type OIDs; 0 for a prefix operator's left).
func OperatorOID(name string, left, right uint32) (uint32, bool) {
	l, r := strconv.FormatUint(uint64(left), 10), strconv.FormatUint(uint64(right), 10)
	for _, line := range strings.Split(strings.TrimSpace(pgOperatorTable), "\n") {
		f := operatorFields(line)
		if f == nil || f[1] != name || f[5] != l || f[6] != r {
			continue
		}
		n, err := strconv.ParseUint(f[0], 10, 32)
		return uint32(n), err == nil
	}
	return 0, false
}

// BuiltinProcOID is the pg_proc OID of the built-in function name taking
// args (of a polymorphic one, the function when its name is unique); 0
// when there is none.
func BuiltinProcOID(name string, args []sqltypes.Type) uint32 {
	names := make([]string, len(args))
	for i, t := range args {
		names[i] = t.String()
	}
	if oid, err := procOID(name+"("+strings.Join(names, ",")+")", true); err == nil {
		return oid
	}
	oid, _ := procOID(name, false)
	return oid
}

// OperatorFunc is a built-in operator whose implementation function
// (oprcode) has a given name: its symbol and operand and result types'
// OIDs (left 0 for a prefix operator).
type OperatorFunc struct {
	Op                  string
	Left, Right, Result uint32
}

// OperatorsOfFunction lists the operators the built-in function name
// implements (int4pl is int4 + int4, jsonb_exists is jsonb ? text):
// zproxy registers those functions as operators only, so a call of one by
// name (in a query, an aggregate's SFUNC, an operator's FUNCTION) is bound
// as the operator.
func OperatorsOfFunction(name string) []OperatorFunc {
	return operatorsByFunction()[name]
}

// operatorsByFunction indexes PostgreSQL's pg_operator rows (the generated
// table) by their implementation function's name, once.
var operatorsByFunction = sync.OnceValue(func() map[string][]OperatorFunc {
	num := func(s string) uint32 { n, _ := strconv.ParseUint(s, 10, 32); return uint32(n) }
	out := map[string][]OperatorFunc{}
	for _, line := range strings.Split(strings.TrimSpace(pgOperatorTable), "\n") {
		f := operatorFields(line)
		if f == nil {
			continue
		}
		// oprcode prints qualified where the bare name would be
		// ambiguous (pg_catalog.jsonb_delete); a call names it bare.
		name := strings.TrimPrefix(f[len(f)-1], "pg_catalog.")
		out[name] = append(out[name], OperatorFunc{Op: f[1], Left: num(f[5]), Right: num(f[6]), Result: num(f[7])})
	}
	return out
})
