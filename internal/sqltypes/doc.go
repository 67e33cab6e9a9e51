// Package sqltypes defines zproxy's SQL types and the in-memory Value that
// carries one datum through the planner, executor and wire.
//
// A Type is a column type as a user declares it (smallint … uuid), with its
// PostgreSQL type OID so wire can describe result columns. A Value is a small
// tagged struct rather than an interface so rows can be held without an
// allocation per datum. Text input and output follow PostgreSQL's formats
// (DateStyle ISO, bytea hex, shortest-exact floats) because clients parse
// what they receive as if Postgres had sent it.
//
// Like pgerr, the package imports nothing else of zproxy: it is a leaf used
// by every layer.
package sqltypes
