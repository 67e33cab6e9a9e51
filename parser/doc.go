// Package parser turns client SQL, spelled the Postgres way, into TiDB
// syntax trees for the planner.
//
// A query string flows through three steps. scan splits it into tokens by
// PostgreSQL's lexical rules (comments, ” strings, E” and dollar-quoted
// strings, "quoted identifiers", $n placeholders, operators) and Parse cuts
// the tokens into statements at top-level semicolons. A rewriter then turns
// each statement's tokens into text the TiDB parser accepts: unquoted words
// are folded to lower case, quoted identifiers become `backquoted` ones,
// $n become ? markers, E” and $$ strings become plain literals, casts
// (expr::type, CAST(expr AS type), type 'literal') become
// zp_cast(expr, 'type'), CREATE TABLE column types are respelled as TiDB
// types that ColumnType maps back, and zproxy's DDL extensions (WITH (...),
// USING zorder, INCLUDE (...)) and ON CONFLICT are lifted into fields of
// Statement. Nothing inside a string literal or quoted identifier is
// changed; comments are dropped except TiDB optimizer hints (/*+ ... */),
// which reach TiDB intact and appear as TableHints on the statement.
// PostgreSQL expression syntax TiDB lacks (its other operators such as ||
// and the json ones, TRIM's forms, GROUPING SETS, BETWEEN SYMMETRIC) is
// respelled as calls of zp_ pseudo-functions the planner reads back
// (pgsyntax.go, relational.go).
// Finally the text goes through a pooled TiDB parser (ANSI_QUOTES,
// PIPES_AS_CONCAT, NO_BACKSLASH_ESCAPES). A few statements TiDB cannot
// parse in their Postgres spelling (SET/RESET/SHOW of settings,
// transaction control, DROP INDEX without ON, EXPLAIN options) are built by
// hand, and the session statements TiDB lacks altogether (PREPARE,
// EXECUTE, DEALLOCATE, DISCARD, cursors, LISTEN/NOTIFY, COPY) become a
// UtilityStatement (utility.go).
//
// Every rewrite records an offset map, so a TiDB syntax error, or any
// position the planner finds in the AST, is reported at its place in the
// original query (Statement.Position).
//
// The package depends only on the TiDB parser (with its test_driver value
// types: literals in the AST are *test_driver.ValueExpr) and on
// internal/sqltypes and internal/pgerr; the planner is its only consumer.
package parser
