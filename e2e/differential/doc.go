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
//
// The rest of the schema language comes from a generator of its own per
// round (features.go), on both servers alike: the round's tables in a
// schema of their own (dfs), named qualified or found through
// search_path = dfs, public, with now and then a permanent dfs.tN beside
// a temporary tN that the bare name finds; temporary tables (ON COMMIT
// PRESERVE ROWS); an enum type (df_mood, labels declared out of
// alphabetical order, so comparisons, min/max and ORDER BY show the
// declaration order) as a column type; domains over integer (CHECK
// (VALUE >= 0)) and text (NOT NULL, CHECK) as column types, the rows kept
// within them and the writes free to break them (23514, 23502 on both);
// GENERATED ALWAYS AS (...) STORED columns, which writes leave out;
// indexes with expression keys (lower(c), c + 1) and predicates, unique
// ones too (the rows kept unique; an UPDATE leaves their columns alone and
// an upsert into their table is DO UPDATE, so that no answer depends on
// the order rows are visited in); partitioned tables by RANGE, LIST (with a
// DEFAULT partition) and HASH, whose keys UPDATE changes, moving rows
// between partitions. Queries over a table with a partial or expression
// index get a conjunct that implies its predicate, nearly does, or compares
// its expression, so the optimizer's implication test and expression
// matching are checked. Where zproxy differs on purpose (README), the
// generator stays clear: no Z-order index or shards on a partitioned
// table, no DDL other than CREATE on a temporary table inside a block, no
// DROP TYPE ... CASCADE (reset drops the tables first).
//
// Then it draws statements from a grammar (query.go, window.go, write.go,
// txn.go):
// joins of every kind, derived tables, LATERAL, scalar / IN / EXISTS /
// ANY / ALL subqueries, correlated at any depth, WITH and WITH RECURSIVE,
// set operations, window functions with frames and named windows, VALUES,
// generate_series, views, and INSERT ... SELECT, UPDATE ... FROM, DELETE
// ... USING, with subqueries and RETURNING; and transaction blocks: BEGIN,
// CREATE TABLE (permanent, or temporary with ON COMMIT PRESERVE ROWS,
// DELETE ROWS or DROP), its rows, writes to the round's tables, ALTER
// TABLE, DROP TABLE, TRUNCATE, CREATE INDEX, CREATE SCHEMA, then ROLLBACK,
// a failing statement and COMMIT, or COMMIT. Every statement is
// deterministic, so PostgreSQL's answer is the only right one.
//
// Some shapes are drawn on purpose rather than left to the grammar's
// chance, because they meet the optimizer's order delivery (order.go): a
// table's primary key and its indexes hand rows over in key order,
// forwards or backwards, and a sort, a limit, a merge join, a streaming
// aggregate, DISTINCT or a window above may take that order for the one
// it needs. So an ordered scan (SELECT the key's parts and other columns
// FROM t [WHERE a range on the key, a partial index's predicate, anything]
// ORDER BY a prefix of the primary key or of an index's key, expression
// keys included, all ASC, all DESC or mixed, NULLS FIRST / LAST, with and
// without LIMIT / OFFSET) is a derived table or a WITH query under an
// outer ORDER BY on the same keys the same way, the other way, mixed,
// longer or shorter, with and without an outer LIMIT, joined now and then
// to another table on its first key (a merge join's input); or under
// GROUP BY or DISTINCT on a key prefix ordered along or against it,
// aggregates (string_agg ordered by what it aggregates, min, max, sum,
// count), or a window function whose ORDER BY runs along or against the
// scan's (partitioned by its first key now and then); or two ordered,
// limited scans are the branches of a set operation under an ORDER BY of
// the keys. About one top-level query in seven is one of these, and one
// derived table or WITH query in five elsewhere is an ordered scan; below
// the top, an ORDER BY of some columns without LIMIT is drawn too. A LIMIT
// below the top still keeps a set of rows the SQL fixes: its ORDER BY is
// the whole primary key, or the keys followed by every column of the table,
// spelled as expressions so that the minimiser's dropping a select item
// cannot make them other columns; an order-sensitive window function's
// ORDER BY goes on to every column.
//
// The grammar's templates parenthesize every operator, so they never show
// how a parser groups operators. Some predicates and values are drawn
// without inner parentheses (prec.go, the constructs tagged prec.*):
// LIKE, ILIKE and SIMILAR TO (NOT, ESCAPE) whose subject and pattern are
// concatenations, || over + - * / % ^, unary minus and ::, comparisons,
// BETWEEN, IN lists and IS [NOT] NULL / TRUE / UNKNOWN / DISTINCT FROM
// of such chains, under NOT, AND and OR. Their meaning is PostgreSQL's
// precedence and associativity, which the front end must keep when it
// respells a statement for TiDB's MySQL grammar, where LIKE's pattern is
// a simple expression, || and ^ are other operators and IS binds
// differently (before they were fixed, a pattern cut short at || was a
// syntax error, IS DISTINCT FROM took BETWEEN's AND for a conjunction and
// x ISNULL was read as a column alias). Only forms PostgreSQL accepts are
// drawn: no comparison or IS is applied to another.
//
// Each statement runs on both servers over the simple query protocol and
// is compared (compare.go): both failing must fail with the same SQLSTATE
// class; otherwise column count, names and types (RowDescription), then
// the rows in their text form, floats within a relative 1e-9. Rows compare
// as multisets unless the ORDER BY is positional: then as the sequence of
// runs of equal keys (all columns as keys make it a plain sequence). A
// write also compares its command tag and the target table afterwards.
// A block compares each of its statements (COMMIT's tag too), then what
// the catalog shows of the round's schemas (information_schema.tables and
// .columns, the session's temporary tables in pg_class) and the contents of
// every table: a block that did not commit leaves no trace. The round's
// enum type has an OID of its own on each server; results report it alike.
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
