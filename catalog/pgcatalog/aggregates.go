package pgcatalog

import (
	"strconv"
	"strings"
	"sync"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// pg_aggregate's rows of the user-defined aggregates (CREATE AGGREGATE):
// the definition each Function descriptor of kind 'a' holds.

func init() {
	generate("pg_catalog.pg_aggregate", func(e *Env) []row {
		if e.Snap == nil {
			return nil
		}
		var out []row
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
