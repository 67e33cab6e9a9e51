package ir

import "github.com/zproxy/zproxy/internal/sqltypes"

// UserAgg is how a user-defined aggregate (CREATE AGGREGATE) computes:
// its transition and final functions bound as expressions over rows of
// their own, so the executor's accumulator runs them as it runs any
// expression, through the one aggregation machinery (hash, stream,
// spill, DISTINCT, ORDER BY, FILTER and windows) the built-ins use.
type UserAgg struct {
	// OID is the aggregate's pg_proc OID.
	OID uint32
	// State is the transition state's type; Init its initial value and
	// HasInit whether INITCOND gave one (else the state starts NULL).
	State   sqltypes.Type
	Init    sqltypes.Value
	HasInit bool
	// Trans computes the next state over the row [state, args...];
	// StrictTrans marks a strict transition function, whose NULL inputs
	// leave the state as it is and whose first non-NULL input becomes
	// the state when it starts NULL.
	Trans       Expr
	StrictTrans bool
	// Final computes the result over the row [state, args...] (the
	// arguments NULL: FINALFUNC_EXTRA's), nil when the state is the
	// result; FinalWidth is that row's width.
	Final      Expr
	FinalWidth int
}
