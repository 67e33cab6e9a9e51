// Package sqltypes defines zproxy's SQL types and the in-memory Value that
// carries one datum through the planner, executor and wire.
//
// A Type is a column type as a user declares it (smallint … uuid, numeric,
// interval, char(n), json, jsonb and arrays of any of them), with its
// PostgreSQL type OID and modifiers so wire can describe result columns. A
// Value is a small tagged struct rather than an interface so rows can be
// held without an allocation per datum; the kinds added for issue 14 keep
// their datum behind Value.X (a *apd.Decimal, an IntervalValue, a parsed
// jsonb document, an array).
//
// PostgreSQL 15 is the reference for everything here: text input and
// output (every DateStyle, IntervalStyle, extra_float_digits and
// bytea_output, which Style carries; numeric display scales, jsonb's
// normal form), casts and their
// errors, comparison and hashing, and the arithmetic helpers the
// expression layer calls (AddNumeric, DivNumeric, TimestampAddInterval,
// JSONBContains, ...). The tables in *_pg_test.go were computed by a real
// PostgreSQL 15 (testdata/gen_*.py regenerates them).
//
// Like pgerr, the package imports nothing else of zproxy: it is a leaf used
// by every layer.
package sqltypes
