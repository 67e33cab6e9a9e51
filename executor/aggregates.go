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
	case !isAgg && fn.IsAggregate() && x.Action != parser.RoutineGrant && x.Action != parser.RoutineComment:
		e := pgerr.New(pgerr.WrongObjectType, "\"%s\" is an aggregate function", fn.Name)
		if x.Action == parser.RoutineDrop {
			e = e.WithHint("Use DROP AGGREGATE to drop aggregate functions.")
		}
		return e
	}
	return nil
}

// sigNoSpace is name(type,type) as PostgreSQL's dependency messages print
// a function.
func sigNoSpace(fn *catalog.Function) string {
	return strings.ReplaceAll(signature(fn.Name, identity(fn)), ", ", ",")
}
