package pgcatalog

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// pg_operator's rows of the user-defined operators and pg_cast's of the
// user-defined casts (CREATE OPERATOR, CREATE CAST); an operator is in
// its schema, a cast in none.

func init() {
	generate("pg_catalog.pg_cast", func(e *Env) []row {
		if e.Snap == nil {
			return nil
		}
		var out []row
		for _, c := range e.Snap.Casts() {
			fn := uint32(0)
			if !c.Func.IsZero() {
				fn = funcRefOID(c.Func)
			}
			out = append(out, &pgCastRow{Oid: oidV(c.OID), Castsource: oidV(c.Source.OID()), Casttarget: oidV(c.Target.OID()),
				Castfunc: oidV(fn), Castcontext: charV(c.Context), Castmethod: charV(c.Method)})
		}
		return out
	})
}

// userOperatorRows are pg_operator's rows of the user-defined operators.
func userOperatorRows(e *Env) []row {
	if e.Snap == nil {
		return nil
	}
	var out []row
	for _, o := range e.Snap.AllOperators() {
		code := regprocV(proc{})
		if !o.Func.IsZero() {
			name := o.Func.Name
			if fn, ok := e.Snap.FunctionByOID(o.Func.OID); ok && o.Func.OID != 0 {
				name = fn.Name // its key now, should it have moved since
			}
			code = regprocV(proc{funcRefOID(o.Func), name})
		}
		est := func(name string) sqltypes.Value {
			if name == "" {
				return regprocV(proc{})
			}
			oid, _ := procOID(name, false)
			return regprocV(proc{oid, name})
		}
		left, result := o.Left.OID(), o.Result.OID()
		if o.Kind == 'l' {
			left = 0
		}
		if o.Shell() {
			result = 0
		}
		out = append(out, &pgOperatorRow{Oid: oidV(o.OID), Oprname: nameV(o.Bare()), Oprnamespace: oidV(schemaOID(e.Snap, o.Schema())), Oprowner: oidV(RoleOID(o.Owner)),
			Oprkind: charV(o.Kind), Oprcanmerge: boolV(o.CanMerge), Oprcanhash: boolV(o.CanHash), Oprleft: oidV(left),
			Oprright: oidV(o.Right.OID()), Oprresult: oidV(result), Oprcom: oidV(o.Commutator), Oprnegate: oidV(o.Negator),
			Oprcode: code, Oprrest: est(o.Restrict), Oprjoin: est(o.Join)})
	}
	return out
}

// funcRefOID is the pg_proc OID of a support function.
func funcRefOID(r catalog.FuncRef) uint32 {
	if r.OID != 0 {
		return r.OID
	}
	return BuiltinProcOID(r.Name, r.Args)
}

// isUserOperatorOID reports whether oid is a user-defined operator's
// that its unqualified name finds (pg_operator_is_visible); known is
// whether it is a user-defined operator's at all.
func isUserOperatorOID(e *Env, oid uint32) (visible, known bool) {
	if e == nil || e.Snap == nil {
		return false, false
	}
	for _, o := range e.Snap.AllOperators() {
		if o.OID == oid {
			return e.Snap.OperatorVisible(o), true
		}
	}
	return false, false
}
