package executor

import (
	"context"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// DropSchemaRoutinesAndTypes is the part of DROP SCHEMA ... CASCADE that
// drops the schema's operators, its functions, procedures and aggregates
// (with the operators and casts of other schemas that call them) and then its
// types and domains (DROP TYPE drops a domain too), each through DROP FUNCTION's and DROP TYPE's own
// paths (with CASCADE, so what depends on them goes too), on cat. The
// relations of the schema are dropped before. notice receives nothing:
// the caller announces the objects as PostgreSQL does.
func (e *Executor) DropSchemaRoutinesAndTypes(ctx context.Context, cat *catalog.Catalog, s *catalog.Snapshot, schema string, who RoutineActor) error {
	quiet := func(*pgerr.Error) {}
	// The schema's operators first (those over its functions would go
	// with them, but not those over other schemas' functions, nor
	// shells).
	if ops := s.SchemaOperators(schema); len(ops) > 0 {
		x := &ir.RoutineChange{RoutineStatement: &parser.RoutineStatement{Action: parser.RoutineDrop, MissingOK: true, Cascade: true,
			Operator: &parser.OperatorSpec{}}}
		for _, o := range ops {
			x.DropOps = append(x.DropOps, *o)
		}
		if err := e.ChangeRoutine(ctx, cat, x, who, quiet); err != nil {
			return err
		}
	}
	for _, fn := range s.SchemaFunctions(schema) {
		rs := &parser.RoutineStatement{Action: parser.RoutineDrop, Procedure: fn.Procedure(), MissingOK: true, Cascade: true,
			Refs: []parser.RoutineRef{{Name: fn.Name, HasArgs: true}}}
		if fn.IsAggregate() {
			rs.Aggregate = &parser.AggregateSpec{}
		}
		x := &ir.RoutineChange{RoutineStatement: rs, RefArgs: [][]sqltypes.Type{identity(fn)}}
		if err := e.ChangeRoutine(ctx, cat, x, who, quiet); err != nil {
			return err
		}
	}
	types := s.SchemaTypes(schema)
	if len(types) == 0 {
		return nil
	}
	x := &ir.TypeChange{TypeStatement: &parser.TypeStatement{Action: parser.TypeDrop, Names: types, MissingOK: true, Cascade: true}}
	return e.ChangeType(ctx, cat, x, who.User, quiet)
}

// OperatorObjectName is an operator's name as PostgreSQL's dependency
// messages print it: "operator s.op(integer,integer)".
func OperatorObjectName(o *catalog.Operator) string { return "operator " + o.Description() }

// FunctionDependents are the operators of other schemas than the
// function's and the casts that call fn, as "operator ..." and "cast
// from a to b" (what DROP SCHEMA ... CASCADE takes with the function).
func FunctionDependents(s *catalog.Snapshot, fn *catalog.Function) []string {
	var out []string
	schema, _ := catalog.SplitName(fn.Name)
	for _, o := range s.AllOperators() {
		if fn.OID != 0 && o.Func.OID == fn.OID && o.Schema() != schema {
			out = append(out, OperatorObjectName(o))
		}
	}
	for _, c := range s.Casts() {
		if fn.OID != 0 && c.Func.OID == fn.OID {
			out = append(out, "cast from "+c.Source.String()+" to "+c.Target.String())
		}
	}
	return out
}

// RoutineObjectName is a routine's name as PostgreSQL's dependency
// messages print it: "function s.f(integer,text)", procedures and
// aggregates included.
func RoutineObjectName(fn *catalog.Function) string {
	return "function " + strings.ReplaceAll(signature(catalog.QuoteKey(fn.Name), identity(fn)), ", ", ",")
}
