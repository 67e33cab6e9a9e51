// Package ir is the logical IR: what the binder (package planner) produces
// and the optimizer and executor consume. It holds
//
//   - relations (Rel): Scan, Virtual, Values, TableFunc, Filter, Project,
//     Join, Aggregate, Window, ProjectSet, Sort, Limit, Distinct, SetOp,
//     CTEScan, RecursiveUnion, WorkTable (rel.go, srf.go);
//   - expressions (Expr), small immutable trees evaluated row by row with
//     SQL's three-valued logic, safe to evaluate from several goroutines at
//     once (expr.go, subquery.go, rowcmp.go);
//   - bound statements (Statement): Query, Insert, Update, Delete, the DDL,
//     DCL, SET/SHOW and transaction statements (plan.go and one file per
//     family), with the constraints a write enforces (writecons.go) and the
//     privileges a statement needs (permissions.go).
//
// Nodes traverse themselves. A relation lists its inputs (Inputs,
// WithInputs) and the expressions it evaluates (Expressions,
// WithExpressions); an expression lists its children (AppendChildren,
// WithChildren). The walkers (Walk, MapExpr, WalkRel, MapInputs,
// VisitExprs) are written once over those methods, so a new node kind is
// one file: its type, its Columns, and its traversal methods.
//
// The IR imports no stage of the pipeline but the parser's plain
// descriptions of ALTER TABLE actions and sequence options, which bound
// statements carry as the parser gave them (see internal/archtest).
package ir
