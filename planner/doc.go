// Package planner binds a parsed statement (package parser) to the catalog:
// it resolves table and column names, types every expression, infers the
// types of $n parameters from their context, folds constants, and produces
// the bound statements the optimizer and executor work on (Select, Insert,
// Update, Delete, the DDL statements, SET/SHOW, transaction control).
//
// Flow: parser.Statement (a TiDB AST plus zproxy's extensions) → Bind →
// Statement. A Select carries its WHERE clause as one boolean Expr; the
// optimizer splits it into conjuncts and derives per-column bounds from
// them, so the planner keeps predicates whole and exact.
//
// Expressions (Expr) are small immutable trees evaluated row by row with
// SQL's three-valued logic; they are safe to evaluate from several
// goroutines at once, which the executor's shard streams do.
//
// Typing follows PostgreSQL where clients can tell the difference: integer
// literals are integer unless they need bigint, string literals stay untyped
// until their context (a comparison, an assignment, a cast) gives them a
// type, integer division truncates, avg returns double precision (zproxy has
// no numeric type), and errors carry PostgreSQL's SQLSTATEs (42703 unknown
// column, 42804 wrong type, 42803 grouping, 42883 no such operator).
package planner
