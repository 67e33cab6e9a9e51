package catalog

import "github.com/zproxy/zproxy/internal/sqltypes"

// User-defined aggregates (CREATE AGGREGATE) are Function descriptors of
// Kind 'a' whose Aggregate holds pg_aggregate's definition: stored,
// versioned, overloaded and dropped as functions are.

// FuncRef names a support function of an aggregate (or of an operator or
// cast): a user-defined function by OID, or a built-in by name (OID 0).
// Args are the argument types it was resolved with.
type FuncRef struct {
	Name string          `json:"name"`
	OID  uint32          `json:"oid,omitempty"`
	Args []sqltypes.Type `json:"args,omitempty"`
}

// IsZero reports whether no function is named.
func (r FuncRef) IsZero() bool { return r.Name == "" }

// AggregateDef is a user-defined aggregate's definition, as pg_aggregate
// lists it.
type AggregateDef struct {
	Trans    FuncRef       `json:"sfunc"`
	State    sqltypes.Type `json:"stype"`
	Final    FuncRef       `json:"finalfunc,omitempty"`
	Combine  FuncRef       `json:"combinefunc,omitempty"`
	Serial   FuncRef       `json:"serialfunc,omitempty"`
	Deserial FuncRef       `json:"deserialfunc,omitempty"`
	// InitCond is the initial state's text (nil: a NULL initial state).
	InitCond *string `json:"initcond,omitempty"`
	// FinalExtra is FINALFUNC_EXTRA; FinalModify is 'r', 's' or 'w'.
	FinalExtra  bool `json:"finalextra,omitempty"`
	FinalModify byte `json:"finalmodify"`
	// The moving-aggregate variant (MSFUNC ...), kept for pg_aggregate:
	// zproxy computes a window's aggregate from the plain functions.
	MTrans       FuncRef       `json:"msfunc,omitempty"`
	MInvTrans    FuncRef       `json:"minvfunc,omitempty"`
	MFinal       FuncRef       `json:"mfinalfunc,omitempty"`
	MState       sqltypes.Type `json:"mstype,omitempty"`
	MInitCond    *string       `json:"minitcond,omitempty"`
	MFinalExtra  bool          `json:"mfinalextra,omitempty"`
	MFinalModify byte          `json:"mfinalmodify"`
	// SortOp is SORTOP's operator OID (0 for none); SSpace and MSSpace
	// the state sizes.
	SortOp  uint32 `json:"sortop,omitempty"`
	SSpace  int    `json:"sspace,omitempty"`
	MSSpace int    `json:"msspace,omitempty"`
}

// IsAggregate reports whether f is an aggregate.
func (f *Function) IsAggregate() bool { return f.Kind == 'a' }

// UsesFunction reports whether the aggregate calls the function of that
// OID (a dependency DROP FUNCTION must respect).
func (a *AggregateDef) UsesFunction(oid uint32) bool {
	for _, r := range []FuncRef{a.Trans, a.Final, a.Combine, a.Serial, a.Deserial, a.MTrans, a.MInvTrans, a.MFinal} {
		if r.OID == oid && oid != 0 {
			return true
		}
	}
	return false
}
