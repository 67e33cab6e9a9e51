// Package planner binds a parsed statement (package parser) to the catalog:
// it resolves table and column names through scopes, types every
// expression, infers the types of $n parameters from their context, folds
// constants, and produces the bound statements the optimizer and executor
// work on, in the types of package ir (the logical IR): a Query holding a
// logical plan, Insert, Update and Delete whose rows come from a logical
// plan, the DDL statements, SET/SHOW and transaction control. planner is
// the binder only; the optimizer and executor import ir, never planner.
//
// Flow: parser.Statement (a TiDB AST plus zproxy's extensions) → Bind →
// Statement. A SELECT becomes a tree of relations in the shape it is
// written: FROM items (tables, views, derived tables, functions, CTE
// references) joined left to right, WHERE as a Filter, then Aggregate,
// HAVING, Window, the select list's set-returning functions as ProjectSets
// (srf.go), the select list as a Project, DISTINCT, ORDER BY, LIMIT.
// Names resolve in scope.go: columns of this query's FROM items, then of
// enclosing queries as OuterRefs (correlation), with depths counted as the
// executor pushes outer rows (see ARCHITECTURE.md). Predicates stay whole;
// the optimizer splits them into conjuncts and moves them.
//
// Typing follows PostgreSQL where clients can tell the difference: integer
// literals are integer unless they need bigint (numeric past that),
// literals with a point or an exponent are numeric, string literals stay
// untyped until their context (a comparison, an assignment, a cast, a
// UNION) gives them a type, operators and functions resolve their
// overloads by PostgreSQL's rules from package builtins (arith.go here
// binds them), aggregates and window functions are typed by their
// registry entries there too (agg.go, agg_stat.go and window.go switch over
// no function names), sum of bigint and avg of integers are numeric, and errors
// carry PostgreSQL's SQLSTATEs (42703 unknown column, 42702 ambiguous,
// 42804 wrong type, 42803 grouping, 42883 no such operator or function,
// 42725 not unique, 21000 a subquery with more than one row).
//
// Tests below the SQL level: testdata/bind holds data-driven cases (DDL
// applied to an in-memory catalog by package plannertest, then each query's
// logical plan as ir.Format prints it, or its error and SQLSTATE); TestBind,
// -rewrite to regenerate.
package planner
