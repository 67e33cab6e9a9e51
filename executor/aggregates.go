package executor

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// checkAggregateKind refuses a statement on functions that names an
// aggregate (DROP FUNCTION of one) and DROP AGGREGATE of a plain
// function, as PostgreSQL does.
func checkAggregateKind(fn *catalog.Function, x *ir.RoutineChange) error {
	isAgg := x.Aggregate != nil
	switch {
	case isAgg && !fn.IsAggregate():
		return pgerr.New(pgerr.WrongObjectType, "function %s is not an aggregate", signature(fn.Name, identity(fn)))
	case !isAgg && fn.IsAggregate() && x.Action != parser.RoutineGrant:
		e := pgerr.New(pgerr.WrongObjectType, "\"%s\" is an aggregate function", fn.Name)
		if x.Action == parser.RoutineDrop {
			e = e.WithHint("Use DROP AGGREGATE to drop aggregate functions.")
		}
		return e
	}
	return nil
}

// dropAggregatesOf handles the aggregates whose support functions include
// fn when fn is dropped: 2BP01 unless cascade, else they go too (their
// OIDs, with a notice each).
func dropAggregatesOf(s *catalog.Snapshot, fn *catalog.Function, cascade bool) ([]uint32, []*pgerr.Error, error) {
	var deps []*catalog.Function
	for _, f := range s.AllFunctions() {
		if f.Aggregate != nil && f.OID != fn.OID && f.Aggregate.UsesFunction(fn.OID) {
			deps = append(deps, f)
		}
	}
	if len(deps) == 0 {
		return nil, nil, nil
	}
	// PostgreSQL's dependency messages list argument types without spaces.
	what := strings.ReplaceAll(signature(fn.Name, identity(fn)), ", ", ",")
	if !cascade {
		detail := ""
		for i, d := range deps {
			if i > 0 {
				detail += "\n"
			}
			detail += "function " + signature(d.Name, identity(d)) + " depends on function " + what
		}
		return nil, nil, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop function %s because other objects depend on it", what).
			WithDetail("%s", detail).WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	var oids []uint32
	var notes []*pgerr.Error
	for _, d := range deps {
		oids = append(oids, d.OID)
		notes = append(notes, pgerr.Notice("drop cascades to function %s", signature(d.Name, identity(d))))
	}
	return oids, notes, nil
}
