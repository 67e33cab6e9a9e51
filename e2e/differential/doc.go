// Package differential is a differential test of zproxy against
// PostgreSQL 15, in the spirit of SQLancer and sqlsmith: both servers get
// the same random schemas, rows and statements, and every result must be
// the same.
//
// A campaign runs in rounds. Each round draws a schema (gen.go, schema.go:
// 2-5 tables with and without primary keys, composite and DESC keys,
// secondary and Z-order indexes, write shards placed by the whole key or by
// leading shard columns; smallint, integer, bigint,
// double precision, text, varchar(n), boolean, date and timestamp columns)
// and rows with NULLs, duplicates and skew over small domains, so that
// joins, IN and GROUP BY find matches. The options PostgreSQL lacks
// (DESC in a key, WITH (shards = N, shard_columns = (...)), USING zorder)
// go to zproxy only;
// PostgreSQL gets a btree index or none in place of a Z-order index.
// Then it draws statements from a grammar (query.go, window.go, write.go):
// joins of every kind, derived tables, LATERAL, scalar / IN / EXISTS /
// ANY / ALL subqueries, correlated at any depth, WITH and WITH RECURSIVE,
// set operations, window functions with frames and named windows, VALUES,
// generate_series, views, and INSERT ... SELECT, UPDATE ... FROM, DELETE
// ... USING, with subqueries and RETURNING. Every statement is
// deterministic, so PostgreSQL's answer is the only right one.
//
// Each statement runs on both servers over the simple query protocol and
// is compared (compare.go): both failing must fail with the same SQLSTATE
// class; otherwise column count, names and types (RowDescription), then
// the rows in their text form, floats within a relative 1e-9. Rows compare
// as multisets unless the ORDER BY is positional: then as the sequence of
// runs of equal keys (all columns as keys make it a plain sequence). A
// write also compares its command tag and the target table afterwards.
//
// Statements PostgreSQL estimates to be costly (EXPLAIN's total cost
// above -max-cost) are skipped, as are those it gives up on: random
// nesting can make a correlated subquery over joins of joins run for
// minutes.
//
// A mismatch is minimised (shrink.go, minimize.go): the statement loses
// clauses, conjuncts, select items, joins and operands, the tables lose
// rows, zproxy loses indexes and options, as long as it mismatches the same
// way (the same kind and SQLSTATE); the result is written as a
// self-contained SQL script with both servers' answers. When the state
// before the statement does not reproduce it (an earlier write left
// zproxy's indexes wrong, say), the round's writes are replayed from its
// initial tables and shrunk too. A zproxy that dies is restarted, and the
// end of its log goes with the repro.
//
// Gaps (campaign.go) lists the engine bugs found so far, each with what
// triggers it; the short campaign steers the generator clear of them so
// that it stays green while they are open, and the long campaign
// (-avoid-gaps=false) generates everything. Remove an entry when its bug
// is fixed.
//
// The one intended difference is numeric: zproxy has no numeric type yet,
// so avg, stddev and variance of integers and sum of bigint are double
// precision where PostgreSQL says numeric. The generator casts those
// aggregates (to double precision, or sum(bigint) to bigint) on both
// sides, and the comparison compares numeric columns as numbers.
//
// The tests (differential_test.go) start a throw-away PostgreSQL cluster
// (e2e/harness) and a zproxy process. `make test` runs a short campaign
// with a fixed seed; scripts/difftest.sh (`make difftest`) a long one.
package differential
